/**
 * First-load JavaScript per route (gzip KB): the entry, every module of the route chain and
 * their imports, each counted once, as the browser downloads them on a first visit; and the
 * CSS every page loads (gzip KB).
 * Run after `npm run build`: `npm run bench:js` (`--check` too). Exits non-zero when a route is over budget.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { runsAlone } from "./support";

export const BUDGET_KB = 130;
export const CSS_BUDGET_KB = 25;
/** Stripe.js and its React bindings load only where a card is entered. */
export const EXEMPT_ROUTES = ["/payment/:bookingId"];

interface RouteEntry {
  id: string;
  parentId?: string;
  path?: string;
  module: string;
  imports?: string[];
  css?: string[];
}

export interface RouteSize {
  route: string;
  kb: number;
  overBudget: boolean;
  exempt: boolean;
}

export interface BundleSizes {
  routes: RouteSize[];
  /** Every stylesheet of the build, gzip KB. */
  cssKb: number;
}

export function measureFirstLoadJs(clientDir = path.resolve("build/client")): BundleSizes {
  const assets = path.join(clientDir, "assets");
  const manifestFile = readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f));
  if (!manifestFile) throw new Error("No build found: run `npm run build` first.");
  const source = readFileSync(path.join(assets, manifestFile), "utf8");
  const manifest = JSON.parse(source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1)) as {
    entry: { module: string; imports: string[] };
    routes: Record<string, RouteEntry>;
  };

  const gzipKb = (file: string) => gzipSync(readFileSync(path.join(clientDir, file))).length / 1024;

  const chain = (routeId: string): RouteEntry[] => {
    const route = manifest.routes[routeId];
    if (!route) return [];
    return [...(route.parentId ? chain(route.parentId) : []), route];
  };

  const firstLoadKb = (routeId: string): number => {
    const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
    for (const route of chain(routeId)) {
      files.add(route.module);
      for (const file of route.imports ?? []) files.add(file);
    }
    return [...files].reduce((sum, file) => sum + gzipKb(file), 0);
  };

  const urlOf = (route: RouteEntry): string =>
    chain(route.id)
      .map((r) => r.path)
      .filter(Boolean)
      .join("/")
      .replace(/^\/?/, "/");

  const routes = Object.values(manifest.routes)
    .filter((route) => (route.id !== "root" && route.path !== undefined) || route.id.endsWith("index"))
    .map((route) => {
      const url = urlOf(route);
      const kb = firstLoadKb(route.id);
      const exempt = EXEMPT_ROUTES.includes(url);
      return { route: url, kb, exempt, overBudget: !exempt && kb > BUDGET_KB };
    })
    .sort((a, b) => b.kb - a.kb);
  const cssKb = readdirSync(assets)
    .filter((file) => file.endsWith(".css"))
    .reduce((sum, file) => sum + gzipKb(path.join("assets", file)), 0);
  return { routes, cssKb };
}

if (runsAlone(import.meta.url)) {
  const { routes, cssKb } = measureFirstLoadJs();
  console.log("route".padEnd(28), "first-load JS (gzip KB)");
  for (const row of routes) console.log(row.route.padEnd(28), row.kb.toFixed(1).padStart(6), row.overBudget ? "  OVER BUDGET" : row.exempt ? "  (exempt)" : "");
  const over = routes.filter((row) => row.overBudget);
  console.log(`budget ${BUDGET_KB} KB: ${over.length === 0 ? "every route is within it" : `${over.length} over`}`);
  console.log(`CSS ${cssKb.toFixed(1)} KB gzip (budget ${CSS_BUDGET_KB} KB)`);
  // With or without --check: a route over budget, or CSS over budget, fails the run (CI relies on it).
  process.exitCode = over.length > 0 || cssKb >= CSS_BUDGET_KB ? 1 : 0;
}
