import type { IncomingMessage, ServerResponse } from "node:http";
import { isDatabaseHealthy } from "./db.server";
import { bus, type BusConnection } from "./events/bus.server";

// Liveness (/healthz) says the process answers; readiness (/readyz) says it should be sent requests now.
// A load balancer stops sending to an instance that is not ready, before a drain and until it is.
export type Phase = "starting" | "migrating" | "ready" | "stopping";

let phase: Phase = "starting";

export const appPhase = (): Phase => phase;

export function setAppPhase(next: Phase): void {
  // Once stopping, an instance never becomes ready again.
  if (phase !== "stopping") phase = next;
}

export interface Probes {
  phase: () => Phase;
  database: () => Promise<boolean>;
  eventBus: () => BusConnection;
}

const defaultProbes: Probes = {
  phase: appPhase,
  database: () => isDatabaseHealthy(),
  eventBus: () => bus.connection(),
};

export interface Readiness {
  ready: boolean;
  phase: Phase;
  database: boolean | null;
  eventBus: BusConnection;
}

export async function readiness(probes: Probes = defaultProbes): Promise<Readiness> {
  const current = probes.phase();
  const eventBus = probes.eventBus();
  // The database is asked only once the app has started: migrations hold it until then.
  const database = current === "ready" ? await probes.database() : null;
  return {
    ready: current === "ready" && database === true && eventBus !== "disconnected",
    phase: current,
    database,
    eventBus,
  };
}

/** GET /readyz, answered before the app (it works while the app starts and while it stops). */
export function readyzHandler(probes: Probes = defaultProbes) {
  return async (_request: IncomingMessage, response: ServerResponse) => {
    const state = await readiness(probes);
    response.statusCode = state.ready ? 200 : 503;
    response.setHeader("Content-Type", "application/json; charset=utf-8");
    response.setHeader("Cache-Control", "no-store");
    response.end(JSON.stringify({ status: state.ready ? "ready" : "unavailable", ...state }));
  };
}
