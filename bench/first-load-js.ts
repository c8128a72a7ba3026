// First-load JavaScript and CSS per route (gzip KB), each module counted once as a first visit downloads it.
// Run after `npm run build`: `npm run bench:js`. Exits non-zero when a route is over budget.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { runsAlone } from "./support";

export const BUDGET_KB = 110;
export const CSS_BUDGET_KB = 25;
/** Pages held out of the budget. None today: the Stripe pages load Stripe.js from Stripe itself, and what our
 * own bundle adds to them (the card form's React wrapper) fits. */
const EXEMPT = new Set<string>([]);

interface RouteEntry {
  id: string;
  parentId?: string;
  path?: string;
  module: string;
  imports?: string[];
  css?: string[];
}

interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, RouteEntry>;
}

export interface RouteFigures {
  route: string;
  kb: number;
  cssKb: number;
  budgeted: boolean;
}

export interface FirstLoad {
  routes: RouteFigures[];
  cssKb: number;
  budgetKb: number;
  cssBudgetKb: number;
  over: RouteFigures[];
}

export function measureFirstLoad(buildDir = "build"): FirstLoad {
  const clientDir = path.resolve(buildDir, "client");
  const manifestFile = readdirSync(path.join(clientDir, "assets")).find((f) => /^manifest-.*\.js$/.test(f));
  if (!manifestFile) throw new Error("No build found: run `npm run build` first.");
  const source = readFileSync(path.join(clientDir, "assets", manifestFile), "utf8");
  const manifest = JSON.parse(source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1)) as Manifest;

  const sizes = new Map<string, number>();
  const gzipKb = (file: string) => {
    if (!sizes.has(file)) sizes.set(file, gzipSync(readFileSync(path.join(clientDir, file))).length / 1024);
    return sizes.get(file)!;
  };
  const sum = (files: Set<string>) => [...files].reduce((total, file) => total + gzipKb(file), 0);

  const chain = (routeId: string): RouteEntry[] => {
    const route = manifest.routes[routeId];
    if (!route) return [];
    return [...(route.parentId ? chain(route.parentId) : []), route];
  };

  const scripts = (routeId: string) => {
    const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
    for (const route of chain(routeId)) {
      files.add(route.module);
      for (const file of route.imports ?? []) files.add(file);
    }
    return files;
  };

  // A stylesheet imported with `?url` (the root's Tailwind build) is not in the manifest's css
  // lists: the module that links it carries its address.
  const stylesheets = (routeId: string, scriptFiles: Set<string>) => {
    const files = new Set(chain(routeId).flatMap((route) => route.css ?? []));
    for (const file of scriptFiles) {
      for (const match of readFileSync(path.join(clientDir, file), "utf8").matchAll(/\/assets\/[\w.-]+\.css/g))
        files.add(match[0]);
    }
    return files;
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
      const files = scripts(route.id);
      const url = urlOf(route);
      return { route: url, kb: sum(files), cssKb: sum(stylesheets(route.id, files)), budgeted: !EXEMPT.has(url) };
    })
    .sort((a, b) => b.kb - a.kb);

  return {
    routes,
    cssKb: Math.max(0, ...routes.map((row) => row.cssKb)),
    budgetKb: BUDGET_KB,
    cssBudgetKb: CSS_BUDGET_KB,
    over: routes.filter((row) => row.budgeted && row.kb > BUDGET_KB),
  };
}

function report(result: FirstLoad): number {
  console.log("route".padEnd(32), "JS (gzip KB)", " CSS (gzip KB)");
  for (const row of result.routes) {
    const flag = row.kb > result.budgetKb ? (row.budgeted ? "  OVER BUDGET" : "  over budget (exempt)") : "";
    console.log(row.route.padEnd(32), row.kb.toFixed(1).padStart(12), row.cssKb.toFixed(1).padStart(14), flag);
  }
  const cssOver = result.cssKb > result.cssBudgetKb;
  console.log(
    `JS budget ${result.budgetKb} KB: ${result.over.length === 0 ? "every budgeted route is within it" : `${result.over.length} over`}`,
  );
  console.log(
    `CSS budget ${result.cssBudgetKb} KB: largest ${result.cssKb.toFixed(1)} KB${cssOver ? ", OVER BUDGET" : ""}`,
  );
  return result.over.length > 0 || cssOver ? 1 : 0;
}

if (runsAlone(import.meta.url)) {
  process.exitCode = report(measureFirstLoad());
}
