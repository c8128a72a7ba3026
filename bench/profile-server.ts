// Profiles the built server under load: `npx tsx bench/profile-server.ts [/dashboard /messages …]`.
// Grows a demo database once (PROFILE_DATA, kept between runs), starts `node --cpu-prof server.js`,
// loads each page for PROFILE_SECONDS with gzip as browsers ask, stops the server and prints the
// modules and functions with the most self time, then the most inclusive time, counting only samples
// taken under load. PROFILE_NO_PROF=1 only measures CPU per request; PROFILE_KEEP=prefix keeps each
// page's .cpuprofile; BENCH_PORT (default 3303).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { growDemoDatabase } from "./server-throughput";
import { DEMO_USER, signIn, startServer } from "./support";

const port = Number(process.env.BENCH_PORT ?? 3303);
const dataDir = path.resolve(process.env.PROFILE_DATA ?? "/tmp/profile-server-data");
const seconds = Number(process.env.PROFILE_SECONDS ?? 10);
const pages = process.argv.slice(2).length ? process.argv.slice(2) : ["/dashboard", "/messages"];
const profileDir = path.join(dataDir, "profiles");

if (!existsSync(path.join(dataDir, "grown"))) {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const seeding = await startServer(dataDir, port);
  await seeding.stop();
  growDemoDatabase(path.join(dataDir, "trusted-sitters.db"));
  openSync(path.join(dataDir, "grown"), "w");
}

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const profile = process.env.PROFILE_NO_PROF !== "1";
for (const page of pages) {
  rmSync(profileDir, { recursive: true, force: true });
  const log = openSync(path.join(dataDir, "server.log"), "a");
  const child = spawn(
    process.execPath,
    [...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "--cpu-prof-interval=200"] : []), "server.js"],
    {
      env: { ...process.env, NODE_ENV: "production", DEMO_MODE: "true", DATA_DIR: dataDir, PORT: String(port) },
      stdio: ["ignore", log, log],
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const origin = `http://localhost:${port}`;
  for (;;) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const cookie = await signIn(origin, DEMO_USER, "happy-paws-2026");
  const headers = { cookie, "accept-encoding": "gzip" };
  await autocannon({ url: origin + page, connections: 10, duration: 2, headers });
  const loadStartUs = Number(process.hrtime.bigint() / 1000n);
  const before = cpuMs(child.pid!);
  const result = await autocannon({ url: origin + page, connections: 10, duration: seconds, headers });
  const used = cpuMs(child.pid!) - before;
  console.log(
    `${page}: ${(used / result.requests.total).toFixed(2)} ms CPU/request, ${result.requests.average} req/s, non-2xx ${result.non2xx}`,
  );
  child.kill("SIGTERM");
  await exited;
  if (!profile) continue;
  const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"))!;
  const text = readFileSync(path.join(profileDir, file), "utf8");
  if (process.env.PROFILE_KEEP)
    writeFileSync(`${process.env.PROFILE_KEEP}${page.replace(/\W+/g, "-")}.cpuprofile`, text);
  summarise(JSON.parse(text), page, loadStartUs);
}

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
function summarise(
  prof: { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number },
  page: string,
  fromUs: number,
) {
  const byId = new Map(prof.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of prof.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<number, number>();
  let at = prof.startTime;
  prof.samples.forEach((id, i) => {
    at += prof.timeDeltas[i] ?? 0;
    if (at >= fromUs) self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i + 1] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = new Set(["(idle)", "(program)", "(garbage collector)"]);
  const module = (url: string) => {
    if (!url) return "(native)";
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    if (m) return m[1]!;
    if (url.startsWith("node:")) return url;
    return url.replace(/^file:\/\/.*?\/build\//, "build/").replace(/^file:\/\/\/work\/wt\/cpu\//, "");
  };
  const byFn = new Map<string, number>();
  const byModule = new Map<string, number>();
  for (const [id, time] of self) {
    const node = byId.get(id)!;
    const key = `${node.callFrame.functionName || "(anon)"} ${module(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + time);
    const mod = idle.has(node.callFrame.functionName) ? node.callFrame.functionName : module(node.callFrame.url);
    byModule.set(mod, (byModule.get(mod) ?? 0) + time);
  }
  // Inclusive time of each function (counted once per stack).
  const inclusive = new Map<string, number>();
  for (const [id, time] of self) {
    const seen = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
      const frame = byId.get(node)!.callFrame;
      if (!frame.url) continue;
      const key = `${frame.functionName || "(anon)"} ${module(frame.url)}:${frame.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + time);
    }
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, time]) => `  ${((time / total) * 100).toFixed(1).padStart(5)} %  ${key}`)
      .join("\n");
  console.log(
    `— ${page}: self time by module\n${top(byModule, 25)}\n— by function\n${top(byFn, 60)}\n— inclusive\n${top(inclusive, Number(process.env.PROFILE_INCLUSIVE ?? 80))}`,
  );
}
