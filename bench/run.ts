// `npm run bench [names…]`: builds when stale, runs each benchmark in a process of its own (the database
// module is bound to one data folder per process, and heap figures need a clean heap) and prints one
// table. A missed target is a FAIL row, not an error: figures vary on a loaded machine.
import { fork, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DECK_TARGET_P95_MS, measureDeckQuery, type DeckCase } from "./deck-query";
import { BUDGET_KB, CSS_BUDGET_KB, measureFirstLoad } from "./first-load-js";
import { LIGHTHOUSE_TARGETS, measureLighthouse, type PageScores } from "./lighthouse";
import { LIVE_TARGETS, measureLiveEvents, type LiveEventFigures } from "./live-events";
import { measurePhotoProcessing, type PhotoFigures } from "./photo-processing";
import { BODY_MEMORY_TARGET_MB, measureBodyMemory, type BodyMemoryFigures } from "./request-body-memory";
import {
  buildReferenceIfNeeded,
  measureServerThroughput,
  SERVER_TARGET_RATIO,
  type ServerThroughput,
} from "./server-throughput";
import { fixed, runsAlone } from "./support";

export interface Row {
  benchmark: string;
  figure: string;
  target: string;
  pass: boolean | null;
}

const children = {
  deck: () => measureDeckQuery({ log: console.error }),
  live: () => measureLiveEvents({ log: console.error }),
  photo: () => measurePhotoProcessing({ log: console.error }),
  server: () => measureServerThroughput({ log: console.error }),
  lighthouse: () => measureLighthouse({ log: console.error }),
  body: () => measureBodyMemory({ log: console.error }),
};
type ChildName = keyof typeof children;
const ORDER: (ChildName | "js")[] = ["js", "deck", "live", "photo", "server", "body", "lighthouse"];

function inChild<T>(name: ChildName): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ["--child", name], {
      execArgv: ["--expose-gc", "--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let figures: { ok: true; value: T } | { ok: false; error: string } | undefined;
    child.on("message", (message) => (figures = message as typeof figures));
    child.on("exit", (code) => {
      if (figures?.ok) resolve(figures.value);
      else reject(new Error(figures?.ok === false ? figures.error : `${name} exited with code ${code}`));
    });
  });
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(file) : statSync(file).mtimeMs);
  }
  return newest;
}

function buildIfNeeded() {
  const built = "build/server/index.js";
  const sources = Math.max(
    newestSource("app"),
    newestSource("locales"),
    newestSource("public"),
    newestSource("db"),
    statSync("vite.config.ts").mtimeMs,
    statSync("package.json").mtimeMs,
  );
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  console.error("The build is missing or older than the sources: npm run build");
  const result = spawnSync("npm", ["run", "build"], { stdio: ["ignore", process.stderr, "inherit"] });
  if (result.status !== 0) throw new Error("npm run build failed");
  buildReferenceIfNeeded();
}

const ms = (value: number) => `${fixed(value, value < 10 ? 2 : 0)} ms`;

function jsRows(): Row[] {
  const { routes, cssKb, over } = measureFirstLoad();
  const budgeted = routes.filter((route) => route.budgeted);
  const largest = budgeted[0];
  const rows: Row[] = [
    {
      benchmark: "First-load JS, largest route (gzip)",
      figure: largest ? `${fixed(largest.kb)} KB ${largest.route}` : "no routes",
      target: `≤ ${BUDGET_KB} KB`,
      pass: over.length === 0,
    },
    {
      benchmark: "First-load JS, routes over budget",
      figure: over.length
        ? over.map((route) => `${route.route} ${fixed(route.kb)}`).join(", ")
        : `none of ${budgeted.length}`,
      target: "none",
      pass: over.length === 0,
    },
  ];
  for (const route of routes.filter((r) => !r.budgeted))
    rows.push({
      benchmark: `First-load JS, ${route.route} (exempt)`,
      figure: `${fixed(route.kb)} KB`,
      target: "—",
      pass: null,
    });
  rows.push({
    benchmark: "CSS, largest page (gzip)",
    figure: `${fixed(cssKb)} KB`,
    target: `< ${CSS_BUDGET_KB} KB`,
    pass: cssKb < CSS_BUDGET_KB,
  });
  return rows;
}

function deckRows(cases: DeckCase[]): Row[] {
  return (["local", "global"] as const).map((mode) => {
    const ofMode = cases.filter((c) => c.mode === mode);
    const slowest = (key: "p50Ms" | "p95Ms" | "p99Ms" | "cpuP95Ms" | "firstP95Ms") =>
      Math.max(...ofMode.map((c) => c[key]));
    return {
      benchmark: `Deck query, ${mode} (slowest of ${ofMode.length} cases)`,
      figure: `p50 ${ms(slowest("p50Ms"))}, p95 ${ms(slowest("p95Ms"))}, p99 ${ms(slowest("p99Ms"))}; CPU p95 ${ms(slowest("cpuP95Ms"))}; a viewer's first search in ten minutes p95 ${ms(slowest("firstP95Ms"))}`,
      target: `p95 < ${DECK_TARGET_P95_MS} ms`,
      pass: slowest("p95Ms") < DECK_TARGET_P95_MS,
    };
  });
}

function liveRows(live: LiveEventFigures): Row[] {
  return [
    {
      benchmark: `Live events, delivery at 50/s (${live.streams} streams)`,
      figure: `p50 ${ms(live.p50Ms)}, p99 ${ms(live.p99Ms)}; ${live.delivered}/${live.sent} delivered`,
      target: `p99 ≤ ${LIVE_TARGETS.p99Ms} ms, all delivered`,
      pass: live.p99Ms <= LIVE_TARGETS.p99Ms && live.delivered === live.sent,
    },
    {
      benchmark: `Live events, heap per idle stream (${live.streams} open)`,
      figure:
        live.kbPerStream === null
          ? "n/a (no --expose-gc)"
          : `${fixed(live.kbPerStream, 2)} KB${live.kbPerClient === null ? "" : `; ${fixed(live.kbPerClient, 2)} KB with its eventsource client`}`,
      target: `≤ ${LIVE_TARGETS.kbPerStream} KB`,
      pass: live.kbPerStream === null ? null : live.kbPerStream <= LIVE_TARGETS.kbPerStream,
    },
    {
      benchmark: `Live events, ${live.reconnects} reconnects`,
      figure: `${live.missed} of ${live.reconnectEvents} events missed`,
      target: "0 missed",
      pass: live.missed === 0,
    },
    {
      benchmark: `Live events, one person asks for ${live.greedyAsked} streams`,
      figure: `${live.greedyOpen} stay open; ${fixed(live.readsPerEvent)} database reads per event, delivered to all in ${ms(live.greedyDeliveryMs)}`,
      target: `${LIVE_TARGETS.readsPerEvent} read per event`,
      pass: live.readsPerEvent === LIVE_TARGETS.readsPerEvent,
    },
  ];
}

function photoRows(photo: PhotoFigures): Row[] {
  return [
    {
      benchmark: `Photo processing, ${fixed(photo.inputBytes / 1024 / 1024)} MB JPEG`,
      figure: `p50 ${ms(photo.p50Ms)}; stored ${fixed((photo.fullBytes + photo.cardBytes) / 1024, 0)} KB (full ${photo.width}×${photo.height} + card)`,
      target: "—",
      pass: null,
    },
  ];
}

function serverRows(server: ServerThroughput): Row[] {
  return server.pages.map((page) => {
    const reference = page.path === "reference";
    return {
      benchmark: reference ? "Server, reference page (bare Remix, gzip)" : `Server ${page.path} (signed in, gzip)`,
      figure: `${ms(page.cpuMsPerRequest)} CPU/request, ${fixed(page.requestsPerSecond, 0)} req/s, p99 ${ms(page.p99Ms)}${reference ? "" : `; ${fixed(page.ratioToReference * 100)} % of reference`}${page.failures ? `; ${page.failures} failed` : ""}`,
      target: reference ? "—" : `≥ ${fixed(SERVER_TARGET_RATIO * 100, 0)} % of reference, no failures`,
      pass: reference
        ? page.failures === 0
          ? null
          : false
        : page.ratioToReference >= SERVER_TARGET_RATIO && page.failures === 0,
    };
  });
}

function bodyRows(body: BodyMemoryFigures): Row[] {
  const grew = body.peakMb - body.rssBeforeMb;
  const refused = body.posts.every((post) => post.status === 413);
  return [
    {
      benchmark: "200 MB form post (Content-Length, chunked)",
      figure: `${body.posts.map((post) => post.status ?? "no answer").join(", ")}; RSS ${fixed(body.rssBeforeMb, 0)} → ${fixed(body.rssAfterMb, 0)} MB, peak ${fixed(body.peakMb, 0)} MB`,
      target: `413, peak ≤ +${BODY_MEMORY_TARGET_MB} MB`,
      pass: refused && grew <= BODY_MEMORY_TARGET_MB,
    },
  ];
}

function lighthouseRows(pages: PageScores[]): Row[] {
  return pages.map((page) =>
    page.error
      ? { benchmark: `Lighthouse ${page.path}`, figure: `error: ${page.error}`, target: "", pass: false }
      : {
          benchmark: `Lighthouse ${page.path} (median of ${page.runs})`,
          figure: `perf ${page.performance}, a11y ${page.accessibility}, bp ${page.bestPractices}; LCP ${fixed(page.lcpMs / 1000)} s, TBT ${fixed(page.tbtMs, 0)} ms, CLS ${fixed(page.cls, 3)}`,
          target: `≥ ${LIGHTHOUSE_TARGETS.performance} / ${LIGHTHOUSE_TARGETS.accessibility} / ≥ ${LIGHTHOUSE_TARGETS.bestPractices}`,
          pass:
            page.performance >= LIGHTHOUSE_TARGETS.performance &&
            page.accessibility >= LIGHTHOUSE_TARGETS.accessibility &&
            page.bestPractices >= LIGHTHOUSE_TARGETS.bestPractices,
        },
  );
}

export function printTable(rows: Row[]) {
  const verdict = (row: Row) => (row.pass === null ? "" : row.pass ? "pass" : "FAIL");
  const widths = [
    Math.max(9, ...rows.map((row) => row.benchmark.length)),
    Math.max(6, ...rows.map((row) => row.figure.length)),
    Math.max(6, ...rows.map((row) => row.target.length)),
  ];
  const line = (cells: string[]) =>
    console.log(`| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 4)).join(" | ")} |`);
  line(["benchmark", "figure", "target", "pass"]);
  console.log(`|${[...widths, 4].map((width) => "-".repeat(width + 2)).join("|")}|`);
  for (const row of rows) line([row.benchmark, row.figure, row.target, verdict(row)]);
}

async function main(selected: string[]) {
  const wanted = ORDER.filter((name) => selected.length === 0 || selected.includes(name));
  buildIfNeeded();
  const rows: Row[] = [];
  let failed = false;
  const attempt = async (name: string, make: () => Promise<Row[]> | Row[]) => {
    console.error(`\n— ${name}`);
    try {
      rows.push(...(await make()));
    } catch (error) {
      failed = true;
      rows.push({
        benchmark: name,
        figure: `error: ${error instanceof Error ? error.message : String(error)}`,
        target: "",
        pass: false,
      });
    }
  };
  for (const name of wanted) {
    if (name === "js") await attempt("first-load JS and CSS", jsRows);
    if (name === "deck") await attempt("deck query", async () => deckRows(await inChild<DeckCase[]>("deck")));
    if (name === "live") await attempt("live events", async () => liveRows(await inChild<LiveEventFigures>("live")));
    if (name === "photo")
      await attempt("photo processing", async () => photoRows(await inChild<PhotoFigures>("photo")));
    if (name === "server")
      await attempt("server throughput", async () => serverRows(await inChild<ServerThroughput>("server")));
    if (name === "body")
      await attempt("request body memory", async () => bodyRows(await inChild<BodyMemoryFigures>("body")));
    if (name === "lighthouse")
      await attempt("lighthouse", async () => lighthouseRows(await inChild<PageScores[]>("lighthouse")));
  }
  console.log(
    `\nBenchmarks (${cpus().length} CPUs, load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")} at the end; timings vary with other work on the machine)\n`,
  );
  printTable(rows);
  process.exitCode = failed ? 1 : 0;
}

if (runsAlone(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === "--child") {
    const name = args[1] as ChildName;
    let message: unknown;
    try {
      message = { ok: true, value: await children[name]() };
    } catch (error) {
      console.error(error);
      message = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    // Open handles (event streams, timers) must not keep a finished benchmark alive.
    process.send!(message, () => process.exit(0));
  } else {
    await main(args);
  }
}
