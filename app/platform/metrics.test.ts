import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerBuild } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metricsAllowed, registry } from "./metrics.server";
import { createRequestObserver, routePatterns } from "./request-observer.server";

const route = (id: string, parentId: string | undefined, path?: string, index = false) => ({
  id,
  parentId,
  path,
  index,
  module: {},
});
const routes = Object.fromEntries(
  [
    route("root", undefined, ""),
    route("routes/index", "root", undefined, true),
    route("routes/app-layout", "root"),
    route("routes/user-profile", "routes/app-layout", "users/:userId"),
    route("routes/booking-cancel", "routes/app-layout", "bookings/:bookingId/cancel"),
    route("routes/admin-layout", "root", "admin"),
    route("routes/admin-overview", "routes/admin-layout", undefined, true),
    route("routes/reset-password", "root", "reset-password"),
    route("routes/not-found", "root", "*"),
  ].map((one) => [one.id, one]),
) as unknown as ServerBuild["routes"];

const ID = "7f1c2a9e-3b4d-4e5f-8a6b-1c2d3e4f5a6b";

describe("route patterns", () => {
  const patternOf = routePatterns(routes);

  it("names a request by its route's pattern, never by the address", () => {
    expect(patternOf(`/users/${ID}`)).toBe("/users/:userId");
    expect(patternOf(`/bookings/${ID}/cancel?x=1`)).toBe("/bookings/:bookingId/cancel");
    expect(patternOf(`/bookings/${ID}/cancel.data?_routes=routes%2Fbooking-cancel`)).toBe(
      "/bookings/:bookingId/cancel",
    );
    expect(patternOf("/")).toBe("/");
    expect(patternOf("/_root.data")).toBe("/");
    expect(patternOf("/admin")).toBe("/admin");
    expect(patternOf("/reset-password?token=secret-token-value")).toBe("/reset-password");
    expect(patternOf(`/no/such/${ID}`)).toBe("/*");
    expect(patternOf("/assets/entry.client-AbCd1234.js")).toBe("/assets/*");
    expect(patternOf("/readyz")).toBe("/readyz");
  });

  it("answers the same for an address asked again, after thousands of others and for a very long one", () => {
    const ids = Array.from({ length: 2500 }, (_, i) => `${ID.slice(0, -4)}${String(i).padStart(4, "0")}`);
    for (const id of ids) expect(patternOf(`/users/${id}`)).toBe("/users/:userId");
    for (const id of ids.slice(0, 3)) expect(patternOf(`/bookings/${id}/cancel`)).toBe("/bookings/:bookingId/cancel");
    expect(patternOf(`/users/${ids[0]}`)).toBe("/users/:userId");
    expect(patternOf(`/users/${"x".repeat(5000)}`)).toBe("/users/:userId");
    expect(patternOf(`/users/${"x".repeat(5000)}`)).toBe("/users/:userId");
    expect(patternOf("/admin")).toBe("/admin");
  });
});

describe("request metrics", () => {
  let server: http.Server;
  let origin: string;
  beforeAll(async () => {
    const observe = createRequestObserver({ routes });
    server = http.createServer((request, response) =>
      observe(request, response, () => {
        response.statusCode = request.url?.startsWith("/bookings/") ? 503 : 200;
        response.end("ok");
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("counts requests by route pattern, method and status class, and sends each its request id", async () => {
    const answers = await Promise.all([
      fetch(`${origin}/users/${ID}`),
      fetch(`${origin}/users/42`),
      fetch(`${origin}/bookings/${ID}/cancel`, { method: "POST" }),
      fetch(`${origin}/reset-password?token=secret-token-value`),
    ]);
    for (const answer of answers) await answer.text();
    const ids = answers.map((answer) => answer.headers.get("X-Request-Id"));
    expect(ids.every((id) => /^[0-9a-f-]{36}$/.test(id ?? ""))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    await new Promise((resolve) => setTimeout(resolve, 20));

    const text = await registry.metrics();
    expect(text).toMatch(
      /trusted_sitters_http_requests_total\{route="\/users\/:userId",method="GET",status_class="2xx"\} 2/,
    );
    expect(text).toMatch(
      /trusted_sitters_http_requests_total\{route="\/bookings\/:bookingId\/cancel",method="POST",status_class="5xx"\} 1/,
    );
    expect(text).toMatch(/trusted_sitters_http_request_duration_seconds_bucket\{le="0.005",route="\/users\/:userId"/);
    // No id, number or token ever becomes a label value.
    expect(text).not.toContain(ID);
    expect(text).not.toContain("secret-token-value");
    expect(text).not.toMatch(/route="[^"]*\/42"/);
  });

  it("has the metrics an operator scrapes, each label from a short fixed list", async () => {
    const metrics = await registry.getMetricsAsJSON();
    const names = new Set(metrics.map((metric) => metric.name));
    for (const name of [
      "trusted_sitters_http_requests_total",
      "trusted_sitters_http_request_duration_seconds",
      "trusted_sitters_event_streams_open",
      "trusted_sitters_event_bus_connected",
      "trusted_sitters_event_bus_lag_seconds",
      "trusted_sitters_event_bus_delivery_seconds",
      "trusted_sitters_scheduler_rounds_total",
      "trusted_sitters_scheduler_round_duration_seconds",
      "trusted_sitters_emails",
      "trusted_sitters_payment_tasks",
      "trusted_sitters_disputes_open",
      "trusted_sitters_database_size_bytes",
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "nodejs_eventloop_lag_seconds",
    ])
      expect(names, name).toContain(name);
    const allowed = new Set(["route", "method", "status_class", "job", "outcome", "state", "le"]);
    for (const metric of metrics.filter((one) => one.name.startsWith("trusted_sitters_")))
      for (const value of metric.values)
        for (const [label, labelValue] of Object.entries(value.labels)) {
          expect(allowed, `${metric.name} label ${label}`).toContain(label);
          expect(String(labelValue)).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}|^\d{3,}$|\/\d+(\/|$)/);
        }
  });
});

describe("the metrics token", () => {
  const token = "a-long-enough-scrape-token";
  it("lets only the configured bearer token in", () => {
    expect(metricsAllowed(`Bearer ${token}`, undefined)).toBe(false);
    expect(metricsAllowed(null, token)).toBe(false);
    expect(metricsAllowed("Bearer wrong-token-of-some-length", token)).toBe(false);
    expect(metricsAllowed(`Bearer ${token}x`, token)).toBe(false);
    expect(metricsAllowed(token, token)).toBe(false);
    expect(metricsAllowed(`Basic ${token}`, token)).toBe(false);
    expect(metricsAllowed(`Bearer ${token}`, token)).toBe(true);
    expect(metricsAllowed(`bearer ${token}`, token)).toBe(true);
  });
});
