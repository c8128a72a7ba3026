import { readFileSync } from "node:fs";
import http, { type RequestListener, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import path from "node:path";
import { createReadableStreamFromReadable, type ServerBuild } from "@remix-run/node";
import type { RouteConfigEntry } from "@remix-run/route-config";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { person } from "~/testing/people";
import routes from "~/routes";
import { db } from "./db.server";
import { languageCookie } from "./i18n.server";
import {
  createHttpServer,
  createRequestGuard,
  requestBodyLimits,
  SERVER_TIMEOUTS,
  UPLOAD_LIMITS,
  type ServerTimeouts,
} from "./http-limits.server";
import { FORM_BODY_MAX_BYTES, STRIPE_WEBHOOK_BODY_MAX_BYTES } from "./request-limits";

/**
 * The request guard of server.js on a real HTTP server, with the app's real route modules behind
 * it (called the way the Remix adapter calls them), and the server's timeouts with shorter values.
 */

type RouteModule = { handle?: unknown; action?: (args: unknown) => Promise<unknown> };

/** The server build's route manifest, made from app/routes.ts and the route modules themselves. */
async function routeManifest(): Promise<ServerBuild["routes"]> {
  const manifest: Record<string, unknown> = { root: { id: "root", parentId: undefined, path: "", module: {} } };
  const add = async (entries: RouteConfigEntry[], parentId: string) => {
    for (const entry of entries) {
      const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");
      const module = (await import(/* @vite-ignore */ `../${entry.file}`)) as RouteModule;
      manifest[id] = { id, parentId, path: entry.path, index: entry.index, caseSensitive: entry.caseSensitive, module };
      await add(entry.children ?? [], id);
    }
  };
  await add(routes, "root");
  return manifest as ServerBuild["routes"];
}

function routeFiles(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((entry) => [entry.file, ...routeFiles(entry.children ?? [])]);
}

let manifest: ServerBuild["routes"];
beforeAll(async () => {
  manifest = await routeManifest();
});

describe("body limits by route", () => {
  it("gives uploads to the routes that read them, the webhook its megabyte, and every other body the form limit", () => {
    const limitOf = requestBodyLimits(manifest);
    const multipart = "multipart/form-data; boundary=----x";
    const form = "application/x-www-form-urlencoded";
    expect(limitOf("/settings/language", form)).toBe(FORM_BODY_MAX_BYTES);
    expect(limitOf("/profile/edit", multipart)).toBe(FORM_BODY_MAX_BYTES);
    expect(limitOf("/auth?mode=login", form)).toBe(FORM_BODY_MAX_BYTES);
    expect(limitOf("/webhooks/stripe", "application/json")).toBe(STRIPE_WEBHOOK_BODY_MAX_BYTES);
    expect(limitOf("/photos", multipart)).toBe("upload");
    expect(limitOf("/photos", form)).toBe(FORM_BODY_MAX_BYTES);
    // With JavaScript, Remix posts to the route's path with `.data`.
    expect(limitOf("/photos.data", multipart)).toBe("upload");
    expect(limitOf("/messages.data?index", multipart)).toBe("upload");
    expect(limitOf("/messages", form)).toBe(FORM_BODY_MAX_BYTES);
    expect(limitOf("/pet-profile-setup", multipart)).toBe("upload");
    expect(limitOf("/sitter-profile-setup", multipart)).toBe("upload");
    expect(limitOf("/no/such/page", multipart)).toBe(FORM_BODY_MAX_BYTES);
    expect(limitOf("//evil.example/photos", multipart)).toBe(FORM_BODY_MAX_BYTES);
    expect(limitOf("/photos/x/../../profile/edit", multipart)).toBe(FORM_BODY_MAX_BYTES);
  });

  it("knows every route that reads uploads: a new one fails here until its handle says so", async () => {
    const readsUploads = [...new Set(routeFiles(routes))].filter((file) =>
      readFileSync(path.resolve("app", file), "utf8").includes("readImageUpload("),
    );
    const declared = Object.values(manifest)
      .filter((route) => (route?.module.handle as { uploads?: boolean } | undefined)?.uploads)
      .map((route) => `${route!.id}.tsx`);
    expect(readsUploads.sort()).toEqual(declared.sort());
  });
});

// ——— A server with the guard in front of the real route actions ———

const ROUTES: Record<string, string> = {
  "/settings/language": "routes/settings-language",
  "/webhooks/stripe": "routes/webhooks-stripe",
  "/photos": "routes/photos",
};
const reached: string[] = [];

/** What @remix-run/express does for an action: a web Request over the Node request's stream, the module's action, its Response back. */
const appHandler: RequestListener = (req, res) => {
  reached.push(req.url ?? "");
  void (async () => {
    const url = new URL(`http://localhost${req.url}`);
    const id = ROUTES[url.pathname];
    const action = id ? (manifest[id]?.module as RouteModule).action : undefined;
    if (!action) return void res.writeHead(404).end();
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      for (const item of [value ?? []].flat()) headers.append(name, item);
    const request = new Request(url, {
      method: req.method,
      headers,
      body: createReadableStreamFromReadable(req),
      duplex: "half",
    } as RequestInit);
    let response: Response;
    try {
      response = (await action({
        request,
        params: {},
        context: { clientAddress: "198.51.100.1", cspNonce: "" },
      })) as Response;
    } catch (thrown) {
      response = thrown instanceof Response ? thrown : new Response(String(thrown), { status: 500 });
    }
    // The guard answered a cut upload itself (Express's error handler drops such an answer too).
    if (res.headersSent) return;
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  })();
};

function listen(listener: RequestListener, timeouts?: ServerTimeouts): Promise<{ server: http.Server; port: number }> {
  const server = createHttpServer(listener, timeouts);
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, port: (server.address() as AddressInfo).port })),
  );
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * Posts `size` bytes of `a`, with a Content-Length or chunked, and keeps sending until the whole
 * body is out or the server has answered and stopped reading (then `cut` is true).
 */
function post(
  port: number,
  pathname: string,
  size: number,
  { chunked = false, headers = {} as Record<string, string>, forever = false } = {},
) {
  return new Promise<Answer & { sent: number; cut: boolean }>((resolve, reject) => {
    const request = http.request({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: pathname,
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "text/html",
        ...(chunked ? {} : { "Content-Length": String(size) }),
        ...headers,
      },
    });
    let sent = 0;
    let answer: Answer | undefined;
    let cut = false;
    const chunk = Buffer.alloc(16 * 1024, "a");
    const pump = () => {
      while ((forever || sent < size) && !cut) {
        const part = forever ? chunk : chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += part.length;
        if (!request.write(part)) return void request.once("drain", pump);
      }
      if (!cut) request.end();
    };
    request.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (text: string) => (body += text));
      response.on("end", () => {
        answer = { status: response.statusCode!, headers: response.headers, body };
        if (!forever) resolve({ ...answer, sent, cut });
      });
    });
    request.on("error", (error) => {
      cut = true;
      if (answer) resolve({ ...answer, sent, cut });
      else reject(error);
    });
    request.on("close", () => {
      cut = true;
      if (answer) resolve({ ...answer, sent, cut });
    });
    pump();
  });
}

const get = (port: number, pathname: string) =>
  fetch(`http://127.0.0.1:${port}${pathname}`).then((response) => response.status);

describe("the request guard in front of the app", () => {
  let server: http.Server;
  let port: number;
  const guard = createRequestGuard({
    limitOf: (url, type) => requestBodyLimits(manifest)(url, type),
    lingerMs: 200,
    receiveTimeoutMs: 3_000,
  });

  beforeAll(async () => {
    ({ server, port } = await listen((req, res) => guard(req, res, () => appHandler(req, res))));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("lets a normal form through, whole, to the route", async () => {
    reached.length = 0;
    const body = new URLSearchParams({ language: "de", redirectTo: "/profile?lng=en" });
    const response = await fetch(`http://127.0.0.1:${port}/settings/language`, {
      method: "POST",
      body,
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(reached).toEqual(["/settings/language"]);
    expect(response.headers.get("Location")).toBe("/profile");
    expect(await languageCookie.parse(response.headers.get("Set-Cookie"))).toBe("de");
  });

  it("lets a chunked form under the limit through, whole and in order", async () => {
    const form = new URLSearchParams({ language: "fr", redirectTo: `/profile?${"x=1&".repeat(300)}` });
    const response = await fetch(`http://127.0.0.1:${port}/settings/language`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      // A stream has no length: chunked.
      body: new Blob([form.toString()]).stream(),
      duplex: "half",
      redirect: "manual",
    } as RequestInit);
    expect(response.status).toBe(302);
    expect(await languageCookie.parse(response.headers.get("Set-Cookie"))).toBe("fr");
    expect(response.headers.get("Location")).toBe(`/profile?${"x=1&".repeat(300).slice(0, -1)}`);
  });

  it("refuses 70 KB to a form route with a 413 by its Content-Length, in the reader's language, without the route seeing it", async () => {
    reached.length = 0;
    const answer = await post(port, "/settings/language", 70 * 1024, {
      headers: { "Accept-Language": "de-DE,de;q=0.9" },
    });
    expect(answer.status).toBe(413);
    expect(answer.headers["content-type"]).toContain("text/html");
    expect(answer.body).toContain("Zu viel gesendet");
    expect(answer.body).toContain('lang="de"');
    expect(reached).toEqual([]);
  });

  it("refuses 1.1 MB to the Stripe webhook, and lets 900 KB reach it", async () => {
    reached.length = 0;
    const tooMuch = await post(port, "/webhooks/stripe", Math.round(1.1 * 1024 * 1024), {
      headers: { "Content-Type": "application/json", Accept: "*/*" },
    });
    expect(tooMuch.status).toBe(413);
    expect(tooMuch.headers["content-type"]).toContain("text/plain");
    expect(reached).toEqual([]);
    const enough = await post(port, "/webhooks/stripe", 900 * 1024, {
      headers: { "Content-Type": "application/json" },
    });
    // The webhook read it and found no valid signature.
    expect(enough.status).toBe(400);
    expect(reached).toEqual(["/webhooks/stripe"]);
  });

  it("refuses a chunked body at the limit with a 413, cuts off a client that keeps sending, and stays up", async () => {
    reached.length = 0;
    const answer = await post(port, "/settings/language", 0, { chunked: true, forever: true });
    expect(answer.status).toBe(413);
    expect(answer.body).toContain("Too much was sent");
    // It was cut off: it sent far less than "forever", and no more than the linger let through.
    expect(answer.cut).toBe(true);
    expect(reached).toEqual([]);
    expect(await get(port, "/no/such/route")).toBe(404);
  });

  it("answers a body that stops arriving with a 408", async () => {
    const socket = net.connect(port, "127.0.0.1");
    socket.write(
      "POST /settings/language HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nlanguage=d",
    );
    let text = "";
    socket.on("data", (data: Buffer) => (text += data.toString()));
    await new Promise((resolve) => socket.on("close", resolve));
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("accepts a 4 MB photo upload", async () => {
    const owner = await person("owner", { signedIn: true });
    const photo = await sharp({
      create: {
        width: 2000,
        height: 2000,
        channels: 3,
        background: "#000",
        noise: { type: "gaussian", mean: 128, sigma: 50 },
      },
    })
      .jpeg({ quality: 98 })
      .toBuffer();
    expect(photo.length).toBeGreaterThan(4 * 1024 * 1024);
    const form = new FormData();
    form.append("redirectTo", "/profile/edit");
    form.append("photos", new File([new Uint8Array(photo)], "dog.jpg", { type: "image/jpeg" }));
    const response = await fetch(`http://127.0.0.1:${port}/photos`, {
      method: "POST",
      body: form,
      headers: { Cookie: owner.cookie },
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(await db.selectFrom("photos").select("id").where("user_id", "=", owner.id).execute()).toHaveLength(1);
  });
});

/**
 * An upload to /photos over a raw socket: headers, then a multipart body sent in chunks of `bytes`
 * every `everyMs`, until the server answers or closes. Resolves with the status (null if none) and
 * how long the connection lasted.
 */
function trickleUpload(
  port: number,
  { cookie, bytes = 1, everyMs = 500 }: { cookie?: string; bytes?: number; everyMs?: number },
) {
  return new Promise<{ status: number | null; text: string; ms: number }>((resolve) => {
    const startedAt = Date.now();
    const socket = net.connect(port, "127.0.0.1");
    const boundary = "----trickle";
    const head = [
      "POST /photos HTTP/1.1",
      "Host: localhost",
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      "Transfer-Encoding: chunked",
      "Accept: text/html",
      ...(cookie ? [`Cookie: ${cookie}`] : []),
      "",
      "",
    ].join("\r\n");
    const chunk = (data: Buffer) =>
      Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n")]);
    socket.write(head);
    socket.write(
      chunk(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="dog.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
      ),
    );
    const timer = setInterval(() => {
      if (!socket.destroyed) socket.write(chunk(Buffer.alloc(bytes, 0xff)));
    }, everyMs);
    let text = "";
    socket.on("data", (data: Buffer) => (text += data.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(timer);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      resolve({ status: status ? Number(status) : null, text, ms: Date.now() - startedAt });
    });
    // Ends it from this side after a while, so a test that expects the server to let it run can finish.
    setTimeout(() => socket.destroy(), 8_000).unref();
  });
}

describe("uploads, watched as they stream", () => {
  let server: http.Server;
  let port: number;
  // The server's rules with shorter times: 2 s of grace, then 1 KB/s over every 2 s.
  const guard = createRequestGuard({
    limitOf: (url, type) => requestBodyLimits(manifest)(url, type),
    lingerMs: 200,
    uploadLimits: { ...UPLOAD_LIMITS, perProcess: 5, graceMs: 2_000, windowMs: 2_000, minBytesPerSecond: 1024 },
  });

  beforeAll(async () => {
    ({ server, port } = await listen((req, res) => guard(req, res, () => appHandler(req, res))));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("are the server's own rules: 3 per person, a cap per process, 2 KB/s after 10 s", () => {
    expect(UPLOAD_LIMITS).toMatchObject({ perPerson: 3, graceMs: 10_000, minBytesPerSecond: 2048 });
    expect(UPLOAD_LIMITS.perProcess).toBeGreaterThanOrEqual(UPLOAD_LIMITS.perPerson);
  });

  it("refuses a signed-out client at once, in its language, before the route or anything reads the body", async () => {
    reached.length = 0;
    const answer = await trickleUpload(port, {});
    expect(answer.status).toBe(401);
    expect(answer.ms).toBeLessThan(3_000);
    expect(answer.text).toContain("Sign in to send files");
    expect(reached).toEqual([]);
  });

  it("cuts an upload that trickles a byte every half second once the grace is over, with a 408", async () => {
    const owner = await person("owner", { signedIn: true });
    reached.length = 0;
    const answer = await trickleUpload(port, { cookie: owner.cookie });
    expect(answer.ms).toBeGreaterThanOrEqual(2_000);
    expect(answer.ms).toBeLessThan(6_000);
    expect(answer.status).toBe(408);
    expect(answer.text).toContain("That took too long");
    expect(reached).toEqual(["/photos"]);
    expect(await db.selectFrom("photos").select("id").where("user_id", "=", owner.id).execute()).toEqual([]);
  });

  it("lets a person have 3 uploads in flight and refuses a fourth with a 429; the process cap holds across people", async () => {
    const owner = await person("owner", { signedIn: true });
    const other = await person("owner", { signedIn: true });
    const third = await person("owner", { signedIn: true });
    // Fast enough to keep going: 2 KB every half second.
    const running = [1, 2, 3].map(() => trickleUpload(port, { cookie: owner.cookie, bytes: 2048 }));
    await new Promise((resolve) => setTimeout(resolve, 400));
    const fourth = await trickleUpload(port, { cookie: owner.cookie, bytes: 2048 });
    expect(fourth.status).toBe(429);
    expect(fourth.text).toContain("Too many uploads at once");
    // Five in the process: the other person gets two, the third person none.
    const others = [1, 2].map(() => trickleUpload(port, { cookie: other.cookie, bytes: 2048 }));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await trickleUpload(port, { cookie: third.cookie, bytes: 2048 })).status).toBe(429);
    for (const upload of await Promise.all([...running, ...others])) expect(upload.status).not.toBe(429);
    // Once they are over, the person may upload again.
    expect((await trickleUpload(port, { cookie: owner.cookie, bytes: 2048 })).status).not.toBe(429);
  }, 30_000);
});

describe("server timeouts", () => {
  const short: ServerTimeouts = {
    headersTimeout: 300,
    requestTimeout: 600,
    keepAliveTimeout: 2_000,
    connectionsCheckingInterval: 50,
  };

  it("are set as chosen: headers 20 s, a whole request 10 minutes (uploads), keep-alive 65 s", async () => {
    const { server } = await listen(() => undefined);
    expect(server.headersTimeout).toBe(20_000);
    expect(server.requestTimeout).toBe(600_000);
    expect(server.keepAliveTimeout).toBe(65_000);
    expect(server.timeout).toBe(0);
    expect(SERVER_TIMEOUTS.headersTimeout).toBeLessThanOrEqual(SERVER_TIMEOUTS.requestTimeout);
    await new Promise((resolve) => server.close(resolve));
  });

  it("cut off a client that sends its headers too slowly, with a 408", async () => {
    const { server, port } = await listen((_req, res) => res.end("ok"), short);
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    socket.on("data", (data: Buffer) => (text += data.toString()));
    socket.write("GET / HTTP/1.1\r\n");
    // One header line at a time, never the blank line that ends them.
    const drip = setInterval(() => socket.writable && socket.write("X-Slow: yes\r\n"), 50);
    await new Promise((resolve) => socket.on("close", resolve));
    clearInterval(drip);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    await new Promise((resolve) => server.close(resolve));
  });

  it("keep an idle keep-alive connection open past the headers timeout (it only counts once a request starts)", async () => {
    const { server, port } = await listen((req, res) => res.end(`ok ${req.url}`), short);
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    socket.on("data", (data: Buffer) => (text += data.toString()));
    socket.write("GET /one HTTP/1.1\r\nHost: x\r\n\r\n");
    await new Promise<void>((resolve) => socket.once("data", () => resolve()));
    // Idle for longer than headersTimeout (and requestTimeout), less than keepAliveTimeout.
    await new Promise((resolve) => setTimeout(resolve, 900));
    socket.write("GET /two HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    await new Promise((resolve) => socket.on("close", resolve));
    expect(text).toContain("ok /one");
    expect(text).toContain("ok /two");
    await new Promise((resolve) => server.close(resolve));
  });

  it("never cut a long response such as an event stream", async () => {
    const { server, port } = await listen((_req, res: ServerResponse) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      let sent = 0;
      const beat = setInterval(() => {
        res.write(`data: ${++sent}\n\n`);
        if (sent === 10) {
          clearInterval(beat);
          res.end();
        }
      }, 100);
    }, short);
    const response = await fetch(`http://127.0.0.1:${port}/events`);
    const text = await response.text();
    expect(text).toContain("data: 10");
    await new Promise((resolve) => server.close(resolve));
  });
});
