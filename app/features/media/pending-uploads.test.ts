import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { advanceClock, resetClock } from "~/platform/clock.server";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { person } from "~/testing/people";
import {
  adoptPendingUploads,
  havePendingUploads,
  keepPendingUploads,
  listPendingUploads,
  mayViewPendingUpload,
  removePendingUpload,
} from "./pending-uploads.server";
import { listPhotos } from "./photos.server";

const image = () =>
  sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 90, g: 120, b: 200 } } })
    .png()
    .toBuffer();
const keysOf = (userId: string) =>
  db.selectFrom("pending_uploads").select(["card_key", "full_key"]).where("user_id", "=", userId).execute();
const stored = (key: string) => existsSync(path.join(env.DATA_DIR, "media", key));

afterEach(() => resetClock());

describe("pending uploads", () => {
  it("keeps re-encoded photos for their person and form only", async () => {
    const alice = (await person("owner")).id;
    const bob = (await person("owner")).id;
    expect(await keepPendingUploads(alice, "pet", [await image()])).toEqual({ status: "kept" });
    const [kept] = await listPendingUploads(alice, "pet");
    expect(kept?.cardUrl).toMatch(/^\/media\/./);
    const [keys] = await keysOf(alice);
    expect(keys && stored(keys.card_key) && stored(keys.full_key)).toBe(true);
    expect(await listPendingUploads(alice, "other-form")).toEqual([]);
    expect(await listPendingUploads(bob, "pet")).toEqual([]);
    expect(await havePendingUploads(bob, "pet", [kept!.id])).toBe(false);
    expect(await removePendingUpload(bob, "pet", kept!.id)).toBe(false);
    expect(await adoptPendingUploads({ userId: bob, petId: null }, "pet", [kept!.id])).toEqual({
      status: "refused",
      problem: "media.pendingGone",
    });
    expect(await listPhotos({ userId: bob, petId: null })).toHaveLength(0);
    expect(await havePendingUploads(alice, "pet", [kept!.id])).toBe(true);
    expect(await mayViewPendingUpload(alice, keys!.full_key)).toBe(true);
    expect(await mayViewPendingUpload(bob, keys!.full_key)).toBe(false);
    expect(await mayViewPendingUpload(bob, keys!.card_key)).toBe(false);
  });

  it("refuses a file that is not an image, or more than six, and keeps nothing", async () => {
    const alice = (await person("owner")).id;
    expect(await keepPendingUploads(alice, "pet", [Buffer.from("<html></html>")])).toEqual({
      status: "refused",
      problem: "media.notAnImage",
    });
    const seven = await Promise.all(Array.from({ length: 7 }, image));
    expect(await keepPendingUploads(alice, "pet", seven)).toEqual({ status: "refused", problem: "media.tooMany" });
    expect(await listPendingUploads(alice, "pet")).toEqual([]);
  });

  it("turns them into photos once, and a forged id changes nothing", async () => {
    const alice = (await person("owner")).id;
    await keepPendingUploads(alice, "pet", [await image(), await image()]);
    const ids = (await listPendingUploads(alice, "pet")).map((upload) => upload.id);
    const owner = { userId: alice, petId: null };
    expect(await adoptPendingUploads(owner, "pet", [...ids, randomUUID()])).toEqual({
      status: "refused",
      problem: "media.pendingGone",
    });
    expect(await listPhotos(owner)).toHaveLength(0);
    expect(await adoptPendingUploads(owner, "pet", ids)).toEqual({ status: "added", count: 2 });
    expect((await listPhotos(owner)).map((photo) => photo.position)).toEqual([0, 1]);
    expect(await listPendingUploads(alice, "pet")).toEqual([]);
    expect(await adoptPendingUploads(owner, "pet", ids)).toEqual({ status: "refused", problem: "media.pendingGone" });
  });

  it("removes a kept photo and its files when asked, and every one after an hour", async () => {
    const alice = (await person("owner")).id;
    await keepPendingUploads(alice, "pet", [await image(), await image()]);
    const [first, second] = await listPendingUploads(alice, "pet");
    const keys = await keysOf(alice);
    expect(await removePendingUpload(alice, "pet", first!.id)).toBe(true);
    expect((await listPendingUploads(alice, "pet")).map((upload) => upload.id)).toEqual([second!.id]);
    advanceClock(60 * 60 * 1000 + 1000);
    expect(await havePendingUploads(alice, "pet", [second!.id])).toBe(false);
    expect(await listPendingUploads(alice, "pet")).toEqual([]);
    expect(keys.some((key) => stored(key.card_key) || stored(key.full_key))).toBe(false);
  });
});
