import { describe, expect, it } from "vitest";
import { cardEntryAttempt, cardEntryReply } from "./card-entry-reply.server";

const form = (attempt: string) => {
  const data = new FormData();
  data.set("attempt", attempt);
  return data;
};

describe("card entry replies", () => {
  it("are never cached, errors included", async () => {
    const ready = cardEntryReply({ status: "ready", clientSecret: "seti_1_secret_2" });
    expect(ready.headers.get("Cache-Control")).toBe("no-store");
    expect(await ready.json()).toEqual({ clientSecret: "seti_1_secret_2" });

    const stale = cardEntryReply({ status: "refused", error: "bookings:errors.stale", httpStatus: 400 });
    expect(stale.status).toBe(400);
    expect(stale.headers.get("Cache-Control")).toBe("no-store");
    expect(await stale.json()).toEqual({ error: "bookings:errors.stale" });

    const declined = cardEntryReply({ status: "failed", code: "card_declined" });
    expect(declined.status).toBe(402);
    expect(declined.headers.get("Cache-Control")).toBe("no-store");
  });

  it("take only a well-formed attempt key", () => {
    expect(cardEntryAttempt(form("0b7a2c1e-5d4f-4a3b-9c8d-7e6f5a4b3c2d"))).toBe("0b7a2c1e-5d4f-4a3b-9c8d-7e6f5a4b3c2d");
    expect(cardEntryAttempt(form("short"))).toBeNull();
    expect(cardEntryAttempt(form("has space in it"))).toBeNull();
    expect(cardEntryAttempt(new FormData())).toBeNull();
  });
});
