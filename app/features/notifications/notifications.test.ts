import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { advanceClock, clockTo, resetClock, resetClockAfterEach } from "~/testing/clock";
import { person } from "~/testing/people";
import {
  countUnread,
  listNotifications,
  markAllRead,
  notify,
  openNotification,
  setSounds,
} from "./notifications.server";

async function notificationAt(
  userId: string,
  type: "match" | "booking_request" | "review",
  at: Date,
  link = "/bookings",
) {
  const id = randomUUID();
  await db
    .insertInto("notifications")
    .values({ id, user_id: userId, type, data: JSON.stringify({ name: "Ana" }), link, created_at: at.toISOString() })
    .execute();
  return id;
}

resetClockAfterEach();

describe("notifications", () => {
  it("groups by the person's own days: Today, Yesterday, Earlier, newest first", async () => {
    const owner = await person("owner");
    // At noon (UTC) today, so 26 hours ago is yesterday whenever the test runs (shortly after midnight it was two days ago).
    const today = now();
    clockTo(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 12)), 0);
    const reference = now();
    await notificationAt(owner.id, "match", new Date(reference.getTime() - 1000));
    await notificationAt(owner.id, "review", new Date(reference.getTime() - 26 * 3600_000));
    await notificationAt(owner.id, "booking_request", new Date(reference.getTime() - 5 * 24 * 3600_000));
    // Far in the east the day may already have turned: grouping follows the person's zone.
    const groups = await listNotifications({ id: owner.id, time_zone: "UTC" }, "all");
    expect(groups.map((group) => [group.group, group.items.map((item) => item.type)])).toEqual([
      ["today", ["match"]],
      ["yesterday", ["review"]],
      ["earlier", ["booking_request"]],
    ]);
    expect(
      (await listNotifications({ id: owner.id, time_zone: "UTC" }, "bookings")).flatMap((group) =>
        group.items.map((item) => item.type),
      ),
    ).toEqual(["review", "booking_request"]);
  });

  it("opening marks one read and leads to its subject; another person's id leads nowhere and changes nothing", async () => {
    const owner = await person("owner");
    const other = await person("sitter");
    const id = await notificationAt(owner.id, "match", now(), "/messages?userId=abc");
    expect(await openNotification(other.id, id)).toBeNull();
    expect(await countUnread(owner.id)).toBe(1);
    expect(await openNotification(owner.id, id)).toEqual({ link: "/messages?userId=abc" });
    expect(await countUnread(owner.id)).toBe(0);
    // Only paths inside the app are followed.
    const outside = await notificationAt(owner.id, "match", now(), "https://evil.example/");
    expect(await openNotification(owner.id, outside)).toEqual({ link: "/notifications" });
  });

  it("mark all as read touches only the person's own, and only the tab's types", async () => {
    const owner = await person("owner");
    const other = await person("owner");
    await notificationAt(owner.id, "match", now());
    await notificationAt(owner.id, "booking_request", now());
    await notificationAt(other.id, "match", now());
    expect(await markAllRead(owner.id, "bookings")).toBe(1);
    expect(await countUnread(owner.id)).toBe(1);
    expect(await markAllRead(owner.id)).toBe(1);
    expect(await markAllRead(owner.id)).toBe(0);
    expect(await countUnread(owner.id)).toBe(0);
    expect(await countUnread(other.id)).toBe(1);
  });

  it("every notification is also a live event for the person's open tabs", async () => {
    const owner = await person("owner");
    await notify({ userId: owner.id, type: "welcome", data: { name: "Olga" } });
    const events = await db.selectFrom("live_events").select("type").where("user_id", "=", owner.id).execute();
    expect(events.map((event) => event.type)).toEqual(["notification"]);
  });

  it("keeps the sound setting on the person's record", async () => {
    const owner = await person("owner");
    const sounds = async () =>
      (await db.selectFrom("users").select("sounds_enabled").where("id", "=", owner.id).executeTakeFirstOrThrow())
        .sounds_enabled;
    expect(await sounds()).toBe(1);
    await setSounds(owner.id, false);
    expect(await sounds()).toBe(0);
  });

  it("a day later, today's notifications are yesterday's", async () => {
    const owner = await person("owner");
    await notificationAt(owner.id, "match", now());
    advanceClock(24 * 3600_000);
    try {
      const [group] = await listNotifications({ id: owner.id, time_zone: "Europe/Madrid" }, "all");
      expect(group!.group).toBe("yesterday");
    } finally {
      resetClock();
    }
  });
});
