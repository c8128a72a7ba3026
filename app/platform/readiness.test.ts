import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { PostgresBus, type BusConnection } from "./events/bus.server";
import { readyzHandler, type Phase, type Probes } from "./readiness.server";

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function readyz(state: { phase: Phase; database?: boolean; eventBus?: BusConnection }) {
  const probes: Probes = {
    phase: () => state.phase,
    database: async () => state.database ?? true,
    eventBus: () => state.eventBus ?? "connected",
  };
  const server = http.createServer(readyzHandler(probes));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`);
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

describe("/readyz", () => {
  it("is ready once started, with the database answering and the event bus connected or idle", async () => {
    expect((await readyz({ phase: "ready" })).status).toBe(200);
    expect((await readyz({ phase: "ready", eventBus: "idle" })).status).toBe(200);
  });

  it("answers 503 while starting and while migrations run", async () => {
    const migrating = await readyz({ phase: "migrating" });
    expect(migrating.status).toBe(503);
    expect(migrating.body).toMatchObject({ status: "unavailable", phase: "migrating" });
    expect((await readyz({ phase: "starting" })).status).toBe(503);
  });

  it("answers 503 while the database is unreachable", async () => {
    const answer = await readyz({ phase: "ready", database: false });
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ database: false });
  });

  it("answers 503 while the event bus is disconnected", async () => {
    const answer = await readyz({ phase: "ready", eventBus: "disconnected" });
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ eventBus: "disconnected" });
  });

  it("answers 503 during shutdown", async () => {
    expect((await readyz({ phase: "stopping" })).status).toBe(503);
  });
});

describe("the PostgreSQL event bus's connection state", () => {
  it("is idle until listening is asked for, then disconnected while its server cannot be reached", async () => {
    // Nothing listens on port 9 of this machine: the connection is refused at once.
    const bus = new PostgresBus("postgres://nobody@127.0.0.1:9/none", () => {
      throw new Error("not used");
    });
    expect(bus.connection()).toBe("idle");
    const stop = bus.subscribe("someone", () => undefined);
    expect(bus.connection()).toBe("disconnected");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bus.connection()).toBe("disconnected");
    stop();
    await bus.close();
  });
});
