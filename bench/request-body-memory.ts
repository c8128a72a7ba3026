// The server's RSS around a 200 MB post to a form route (with a Content-Length, and chunked), then
// around 20 parallel 6 MB photo uploads from one member. Without a body limit such a post once moved
// the server from 290 MB to 900 MB; the 20 uploads, before a person could have only 3 in flight, from
// 279 MB to 621 MB.
// Run after `npm run build`: `npx tsx bench/request-body-memory.ts` (BENCH_PORT, default 3303). Linux only.
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEMO_USER, fixed, runsAlone, signIn, startServer } from "./support";

const BODY_BYTES = 200 * 1024 * 1024;
export const BODY_MEMORY_TARGET_MB = 50;

export interface PostFigures {
  kind: "Content-Length" | "chunked";
  status: number | null;
  sentMb: number;
}

export interface BodyMemoryFigures {
  rssBeforeMb: number;
  rssAfterMb: number;
  peakMb: number;
  posts: PostFigures[];
  uploads: { statuses: Record<string, number>; rssBeforeMb: number; rssAfterMb: number; peakMb: number };
}

const DEMO_PASSWORD = "happy-paws-2026";
const PARALLEL_UPLOADS = 20;
const UPLOAD_BYTES = 6 * 1024 * 1024;

/** One photo upload of UPLOAD_BYTES (not a real image: the route reads it whole before it looks). */
function upload(origin: string, cookie: string): Promise<number | null> {
  return new Promise((resolve) => {
    const url = new URL("/photos", origin);
    const boundary = "----bench";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const request = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: "POST",
      headers: {
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        Origin: origin,
        Cookie: cookie,
        "Content-Length": String(head.length + UPLOAD_BYTES + tail.length),
      },
    });
    let status: number | null = null;
    request.on("response", (response) => {
      status = response.statusCode ?? null;
      response.resume();
    });
    request.on("error", () => resolve(status));
    request.on("close", () => resolve(status));
    request.write(head);
    const chunk = Buffer.alloc(64 * 1024, 0xff);
    let sent = 0;
    const pump = () => {
      while (sent < UPLOAD_BYTES) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
      request.end(tail);
    };
    pump();
  });
}

function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
}

function post(origin: string, chunked: boolean): Promise<PostFigures> {
  return new Promise((resolve) => {
    const url = new URL("/settings/language", origin);
    const request = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: origin,
        ...(chunked ? {} : { "Content-Length": String(BODY_BYTES) }),
      },
    });
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    let status: number | null = null;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve({ kind: chunked ? "chunked" : "Content-Length", status, sentMb: sent / 1024 / 1024 });
    };
    const pump = () => {
      while (!done && sent < BODY_BYTES) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
      if (!done) request.end();
    };
    request.on("response", (response) => {
      status = response.statusCode ?? null;
      response.resume();
    });
    request.on("error", finish);
    request.on("close", finish);
    pump();
  });
}

export async function measureBodyMemory({
  port = Number(process.env.BENCH_PORT ?? 3303),
  log = console.log,
} = {}): Promise<BodyMemoryFigures> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "body-bench-"));
  try {
    const server = await startServer(dataDir, port);
    try {
      // A few pages first, so the figure before is that of a server that has done some work.
      for (const page of ["/welcome", "/auth?mode=login", "/healthz"]) await (await fetch(server.origin + page)).text();
      const before = memoryOf(server.pid);
      const posts: PostFigures[] = [];
      for (const chunked of [false, true]) {
        const figures = await post(server.origin, chunked);
        posts.push(figures);
        log(
          `200 MB, ${figures.kind}: answered ${figures.status ?? "nothing"} after ${fixed(figures.sentMb)} MB sent; server RSS ${fixed(memoryOf(server.pid).rssMb, 0)} MB`,
        );
      }
      const after = memoryOf(server.pid);
      log(
        `server RSS before ${fixed(before.rssMb, 0)} MB, after ${fixed(after.rssMb, 0)} MB, peak ${fixed(after.peakMb, 0)} MB`,
      );

      const cookie = await signIn(server.origin, DEMO_USER, DEMO_PASSWORD);
      const uploadsBefore = memoryOf(server.pid);
      let highest = uploadsBefore.rssMb;
      const sampler = setInterval(() => (highest = Math.max(highest, memoryOf(server.pid).rssMb)), 20);
      const answered = await Promise.all(Array.from({ length: PARALLEL_UPLOADS }, () => upload(server.origin, cookie)));
      clearInterval(sampler);
      const uploadsAfter = memoryOf(server.pid);
      const statuses: Record<string, number> = {};
      for (const status of answered) statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
      log(
        `${PARALLEL_UPLOADS} parallel ${UPLOAD_BYTES / 1024 / 1024} MB uploads from one member: answers ${JSON.stringify(statuses)}; ` +
          `server RSS before ${fixed(uploadsBefore.rssMb, 0)} MB, highest during ${fixed(highest, 0)} MB, after ${fixed(uploadsAfter.rssMb, 0)} MB`,
      );
      return {
        rssBeforeMb: before.rssMb,
        rssAfterMb: after.rssMb,
        peakMb: after.peakMb,
        posts,
        uploads: { statuses, rssBeforeMb: uploadsBefore.rssMb, rssAfterMb: uploadsAfter.rssMb, peakMb: highest },
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (runsAlone(import.meta.url)) await measureBodyMemory();
