import { afterEach, describe, expect, it, vi } from "vitest";
import { databaseEngine } from "./db.server";
import { every } from "./lifecycle.server";
import { logger } from "./log.server";

// On PostgreSQL each round first takes an advisory lock over the network, which fake timers cannot
// drive; exclusive.postgres.test.ts covers rounds on that engine, against a real cluster.
describe.skipIf(databaseEngine === "postgres")("the scheduler", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("never starts a round of a job while its previous round is still running here, and runs again once it is done", async () => {
    vi.useFakeTimers();
    let started = 0;
    let finish = () => {};
    const stop = every(
      1000,
      () => {
        started += 1;
        return new Promise<void>((resolve) => (finish = resolve));
      },
      "slow-job",
    );
    await vi.advanceTimersByTimeAsync(5500);
    expect(started).toBe(1);
    finish();
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toBe(2);
    stop();
    finish();
    await vi.advanceTimersByTimeAsync(5000);
    expect(started).toBe(2);
  });

  it("a round that fails is logged and the next one still runs", async () => {
    vi.useFakeTimers();
    const logged = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    let started = 0;
    const stop = every(
      1000,
      async () => {
        started += 1;
        throw new Error("processor down");
      },
      "failing-job",
    );
    await vi.advanceTimersByTimeAsync(2500);
    stop();
    expect(started).toBe(2);
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ event: "job.failed", job: "failing-job", err: expect.any(Error) }),
      "Background job failed",
    );
    logged.mockRestore();
  });
});
