import { spawn, type ChildProcess } from "node:child_process";
import { openSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const runsAlone = (moduleUrl: string): boolean =>
  Boolean(process.argv[1]) && moduleUrl === pathToFileURL(path.resolve(process.argv[1]!)).href;

export const CITIES: [string, number, number][] = [
  ["Madrid", 40.4168, -3.7038],
  ["Barcelona", 41.3874, 2.1686],
  ["Valencia", 39.4699, -0.3763],
  ["Seville", 37.3891, -5.9845],
  ["Lisbon", 38.7223, -9.1393],
  ["Porto", 41.1579, -8.6291],
  ["Paris", 48.8566, 2.3522],
  ["Lyon", 45.764, 4.8357],
  ["Marseille", 43.2965, 5.3698],
  ["Toulouse", 43.6047, 1.4442],
  ["Rome", 41.9028, 12.4964],
  ["Milan", 45.4642, 9.19],
  ["Naples", 40.8518, 14.2681],
  ["Turin", 45.0703, 7.6869],
  ["Berlin", 52.52, 13.405],
  ["Munich", 48.1351, 11.582],
  ["Hamburg", 53.5511, 9.9937],
  ["Cologne", 50.9375, 6.9603],
  ["Frankfurt", 50.1109, 8.6821],
  ["Vienna", 48.2082, 16.3738],
  ["Zurich", 47.3769, 8.5417],
  ["Brussels", 50.8503, 4.3517],
  ["Amsterdam", 52.3676, 4.9041],
  ["Copenhagen", 55.6761, 12.5683],
  ["Stockholm", 59.3293, 18.0686],
  ["Oslo", 59.9139, 10.7522],
  ["Warsaw", 52.2297, 21.0122],
  ["Kraków", 50.0647, 19.945],
  ["Gdańsk", 54.352, 18.6466],
  ["Wrocław", 51.1079, 17.0385],
  ["Prague", 50.0755, 14.4378],
  ["Budapest", 47.4979, 19.0402],
  ["Riga", 56.9496, 24.1052],
  ["Vilnius", 54.6872, 25.2797],
  ["Tallinn", 59.437, 24.7536],
  ["Athens", 37.9838, 23.7275],
  ["Dublin", 53.3498, -6.2603],
  ["London", 51.5072, -0.1276],
  ["Bucharest", 44.4268, 26.1025],
  ["Sofia", 42.6977, 23.3219],
];

export function randomSource(seed = 42) {
  let state = seed;
  const random = (): number => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  /** Somewhere around a city: most people within ~15 km of the centre, a few farther out. */
  const around = ([, latitude, longitude]: [string, number, number]): [number, number] => {
    const km = -Math.log(1 - random()) * 12;
    const angle = random() * 2 * Math.PI;
    return [
      latitude + (km / 111.2) * Math.cos(angle),
      longitude + (km / (111.2 * Math.cos((latitude * Math.PI) / 180))) * Math.sin(angle),
    ];
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  return { random, around, pick };
}

export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export interface RunningServer {
  origin: string;
  pid: number;
  stop: () => Promise<void>;
}

export async function startServer(
  dataDir: string,
  port: number,
  extraEnv: Record<string, string> = {},
): Promise<RunningServer> {
  const log = openSync(path.join(dataDir, "server.log"), "a");
  const child: ChildProcess = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DEMO_MODE: "true",
      DATA_DIR: dataDir,
      PORT: String(port),
      ...extraEnv,
    },
    stdio: ["ignore", log, log],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const origin = `http://localhost:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    if (child.exitCode !== null)
      throw new Error(`The server exited with code ${child.exitCode}: see ${path.join(dataDir, "server.log")}`);
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return { origin, pid: child.pid!, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`The server did not start on port ${port} within two minutes`);
}

export async function signIn(origin: string, email: string, password: string): Promise<string> {
  const page = await (await fetch(`${origin}/auth?mode=login`)).text();
  const form = new URLSearchParams({ intent: "login", email, password });
  for (const input of page.matchAll(/<input\b[^>]*>/g)) {
    const name = /\bname="([^"]+)"/.exec(input[0])?.[1];
    if (!name || form.has(name) || !/type="hidden"|autoComplete="nope"|tabindex="-1"/i.test(input[0])) continue;
    form.set(name, /\bvalue="([^"]*)"/.exec(input[0])?.[1] ?? "");
  }
  const response = await fetch(`${origin}/auth?mode=login`, {
    method: "POST",
    body: form,
    redirect: "manual",
    headers: { Origin: origin },
  });
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith("__session="));
  if (!cookie) throw new Error(`Sign-in as ${email} failed (${response.status})`);
  return cookie.split(";")[0]!;
}

export const DEMO_USER = "lucia.owner@demo.trustedsitters.app";

export const fixed = (value: number, digits = 1): string => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");
