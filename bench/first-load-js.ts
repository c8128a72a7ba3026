/**
 * First-load JavaScript per route (gzip KB): the entry, every module of the route chain and
 * their imports, each counted once, as the browser downloads them on a first visit.
 * Run after `npm run build`: `npm run bench:js`. Exits non-zero when a route is over budget.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET_KB = 130;
const clientDir = path.resolve("build/client");
const manifestFile = readdirSync(path.join(clientDir, "assets")).find((f) => /^manifest-.*\.js$/.test(f));
if (!manifestFile) throw new Error("No build found: run `npm run build` first.");

interface RouteEntry {
  id: string;
  parentId?: string;
  path?: string;
  module: string;
  imports?: string[];
}
const source = readFileSync(path.join(clientDir, "assets", manifestFile), "utf8");
const manifest = JSON.parse(source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1)) as {
  entry: { module: string; imports: string[] };
  routes: Record<string, RouteEntry>;
};

const gzipKb = (file: string) => gzipSync(readFileSync(path.join(clientDir, file))).length / 1024;

function chain(routeId: string): RouteEntry[] {
  const route = manifest.routes[routeId];
  if (!route) return [];
  return [...(route.parentId ? chain(route.parentId) : []), route];
}

function firstLoadKb(routeId: string): number {
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const route of chain(routeId)) {
    files.add(route.module);
    for (const file of route.imports ?? []) files.add(file);
  }
  return [...files].reduce((sum, file) => sum + gzipKb(file), 0);
}

const urlOf = (route: RouteEntry): string =>
  chain(route.id)
    .map((r) => r.path)
    .filter(Boolean)
    .join("/")
    .replace(/^\/?/, "/");

const rows = Object.values(manifest.routes)
  .filter((route) => route.id !== "root" && route.path !== undefined || route.id.endsWith("index"))
  .map((route) => ({ route: urlOf(route), kb: firstLoadKb(route.id) }))
  .sort((a, b) => b.kb - a.kb);

console.log("route".padEnd(28), "first-load JS (gzip KB)");
for (const row of rows) console.log(row.route.padEnd(28), row.kb.toFixed(1).padStart(6), row.kb > BUDGET_KB ? "  OVER BUDGET" : "");
const over = rows.filter((row) => row.kb > BUDGET_KB);
console.log(`budget ${BUDGET_KB} KB: ${over.length === 0 ? "every route is within it" : `${over.length} over`}`);
process.exitCode = over.length > 0 ? 1 : 0;
