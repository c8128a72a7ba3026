/**
 * npm run check:layers — the one-way rule, read from the imports of app/, db/ and scripts/:
 *   routes, app/jobs.server.ts, app/demo/  →  app/features/<area>/  →  app/platform/, db/
 * Feature folders depend on each other without cycles, and code outside a feature reaches it only
 * through its entry files (index.ts for what the browser may load, index.server.ts for the rest).
 * app/testing/ is for tests only. Each table is written by its owner only: the feature whose
 * db/schema/<feature>.ts declares it (db/schema/platform.ts: app/platform/).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export type Layer = "route" | "composition" | "feature" | "platform" | "db" | "script" | "test";

export interface Problem {
  rule: "upward" | "cycle" | "entry" | "route-size" | "test-only" | "owner";
  message: string;
}

export const ROUTE_MAX_LINES = 200;
const ENTRY_FILES = new Set(["index.ts", "index.server.ts", "index.tsx"]);

const isTestSupport = (file: string) => file.startsWith("app/testing/");
const isTest = (file: string) => /\.test\.tsx?$/.test(file) || isTestSupport(file);

export function layerOf(file: string): Layer {
  if (isTest(file)) return "test";
  if (
    file.startsWith("app/routes/") ||
    file === "app/routes.ts" ||
    file === "app/root.tsx" ||
    file.startsWith("app/entry.")
  )
    return "route";
  if (file.startsWith("app/features/")) return "feature";
  if (file.startsWith("app/platform/")) return "platform";
  if (file.startsWith("db/")) return "db";
  if (file.startsWith("scripts/") || file.startsWith("bench/")) return "script";
  return "composition";
}

const featureOf = (file: string) => /^app\/features\/([^/]+)(?:\/|$)/.exec(file)?.[1] ?? null;

/** Every module path a file imports (static, re-exports and dynamic imports), as written. */
export function importsOf(source: string): { specifier: string; typeOnly: boolean }[] {
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const statement =
    /^\s*(import|export)\s+(type\s+)?[^;]*?\sfrom\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;
  for (const match of source.matchAll(statement)) {
    const specifier = match[3] ?? match[4] ?? match[5];
    if (specifier) found.push({ specifier, typeOnly: Boolean(match[2]) });
  }
  return found;
}

/** The repository path an import points to, or null for a package. */
export function resolveImport(from: string, specifier: string): string | null {
  if (specifier.startsWith("~/")) return path.posix.normalize(`app/${specifier.slice(2)}`);
  if (specifier.startsWith("~db/")) return path.posix.normalize(`db/${specifier.slice(4)}`);
  if (specifier.startsWith(".")) return path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  return null;
}

function isEntry(target: string, feature: string): boolean {
  const rest = target.slice(`app/features/${feature}`.length).replace(/^\//, "");
  return rest === "" || rest === "index" || rest === "index.server" || ENTRY_FILES.has(rest);
}

/**
 * Tables written by several features on purpose, each with the reason. A person's row holds every
 * feature's columns about them (profile, place, preferences, payout account, suspension): splitting it
 * into one table per feature is a migration of its own.
 */
export const SHARED_TABLES: ReadonlyMap<string, string> = new Map([
  ["users", "the person's row: each feature writes its own columns"],
]);

/** Which owner declares each table: the `…Tables` interfaces of db/schema/<owner>.ts. */
export function tableOwners(files: Map<string, string>): Map<string, string> {
  const owners = new Map<string, string>();
  for (const [file, source] of files) {
    const owner = /^db\/schema\/([^/]+)\.ts$/.exec(file)?.[1];
    if (!owner) continue;
    for (const block of source.matchAll(/export interface \w+Tables \{([^}]*)\}/g))
      for (const table of block[1]!.matchAll(/^\s*(\w+):/gm)) owners.set(table[1]!, owner);
  }
  return owners;
}

/** The tables a source writes by name (Kysely's insertInto, updateTable, deleteFrom, mergeInto). */
export function tablesWritten(source: string): { table: string; line: number }[] {
  const found: { table: string; line: number }[] = [];
  for (const match of source.matchAll(/\b(?:insertInto|updateTable|deleteFrom|mergeInto)\(\s*["'`]([a-z_]+)/g))
    found.push({ table: match[1]!, line: source.slice(0, match.index).split("\n").length });
  return found;
}

/** Who writes from a file: its feature, "platform", or null for code that is not held to the rule (tests, db/, scripts). */
function writerOf(file: string): string | null {
  const layer = layerOf(file);
  if (layer === "feature") return featureOf(file);
  if (layer === "platform") return "platform";
  if (layer === "route" || layer === "composition") return file.startsWith("app/demo/") ? null : "route";
  return null;
}

/** The problems in a set of files (path → source), so the rules can be tested on a made-up tree. */
export function layerProblems(files: Map<string, string>): Problem[] {
  const problems: Problem[] = [];
  const links = new Map<string, Map<string, string>>();
  const owners = tableOwners(files);
  for (const [file, source] of files) {
    const layer = layerOf(file);
    const feature = featureOf(file);
    const writer = writerOf(file);
    if (writer)
      for (const { table, line } of tablesWritten(source)) {
        const owner = owners.get(table);
        if (owner === writer || SHARED_TABLES.has(table)) continue;
        problems.push({
          rule: "owner",
          message: owner
            ? `${file}:${line} writes ${table}, which ${owner === "platform" ? "app/platform" : `features/${owner}`} owns: ask it through its entry`
            : `${file}:${line} writes ${table}, which no db/schema/<owner>.ts declares`,
        });
      }
    if (layer === "route" && file.startsWith("app/routes/")) {
      const lines = source.split("\n").length;
      if (lines > ROUTE_MAX_LINES)
        problems.push({
          rule: "route-size",
          message: `${file} has ${lines} lines (at most ${ROUTE_MAX_LINES}): move its pieces to the feature`,
        });
    }
    for (const { specifier, typeOnly } of importsOf(source)) {
      const target = resolveImport(file, specifier);
      if (!target) continue;
      if (layer !== "test" && isTestSupport(target)) {
        problems.push({ rule: "test-only", message: `${file} imports ${specifier}: app/testing/ is for tests only` });
      }
      const targetLayer = layerOf(target);
      const targetFeature = featureOf(target);
      const upward =
        ((layer === "platform" || layer === "db") &&
          (targetLayer === "feature" || targetLayer === "route" || targetLayer === "composition")) ||
        (layer === "feature" && (targetLayer === "route" || targetLayer === "composition"));
      if (upward && !(typeOnly && layer === "db"))
        problems.push({
          rule: "upward",
          message: `${file} imports ${specifier}: a lower layer never imports a higher one`,
        });
      if (!targetFeature || targetFeature === feature) continue;
      if (layer !== "test" && !isEntry(target, targetFeature)) {
        problems.push({
          rule: "entry",
          message: `${file} imports ${specifier}: use the entry of features/${targetFeature} (index.ts or index.server.ts)`,
        });
      }
      if (feature && layer === "feature") {
        const from = links.get(feature) ?? new Map<string, string>();
        if (!from.has(targetFeature)) from.set(targetFeature, file);
        links.set(feature, from);
      }
    }
  }
  for (const group of featureCycles(links)) {
    const inside = group.flatMap((from) =>
      [...(links.get(from) ?? [])]
        .filter(([to]) => group.includes(to))
        .map(([to, file]) => `${from} → ${to} (${file})`),
    );
    problems.push({
      rule: "cycle",
      message: `features ${group.join(", ")} depend on each other in a circle: ${inside.join("; ")}`,
    });
  }
  return problems;
}

/** Strongly connected groups of feature folders (Tarjan), each listed as one cycle. */
function featureCycles(links: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of links.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const node of links.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

function sourceFiles(root: string, dir: string, into: Map<string, string>) {
  for (const name of readdirSync(path.join(root, dir))) {
    const relative = path.posix.join(dir, name);
    if (statSync(path.join(root, relative)).isDirectory()) sourceFiles(root, relative, into);
    else if (/\.(ts|tsx)$/.test(name)) into.set(relative, readFileSync(path.join(root, relative), "utf8"));
  }
}

export function repositoryFiles(root = process.cwd()): Map<string, string> {
  const files = new Map<string, string>();
  for (const dir of ["app", "db", "scripts"]) sourceFiles(root, dir, files);
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = layerProblems(repositoryFiles());
  for (const problem of problems) console.log(`${problem.rule}: ${problem.message}`);
  if (problems.length > 0) {
    console.log(`\n${problems.length} layer problem(s). The rules: README, "Architecture".`);
    process.exit(1);
  }
  console.log(
    "Layers: one way, every feature reached through its entry, routes within size, each table written by its owner.",
  );
}
