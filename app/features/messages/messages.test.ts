import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { fileStorage, addPhotos } from "~/features/media/index.server";
import { ownerWithPet, requested, sitterWithSlot } from "~/testing/bookings";
import { person } from "~/testing/people";
import { countUnread, listNotifications } from "~/features/notifications/index.server";
import { discardAttachment, mayViewMedia, storeAttachment } from "./attachments.server";
import { conversationWith, ensureConversation, listConversations } from "./conversations.server";
import { markConversationRead, readConversation, sendMessage, unreadMessageCount } from "./messages.server";

const EMPTY_TEXT = { image: "📷 Image", video: "🎥 Video" };

async function matched() {
  const owner = await person("owner");
  const sitter = await person("sitter");
  const [a, b] = owner.id < sitter.id ? [owner.id, sitter.id] : [sitter.id, owner.id];
  await db
    .insertInto("matches")
    .values({ id: randomUUID(), user_a_id: a, user_b_id: b, created_at: new Date().toISOString() })
    .execute();
  const conversationId = (await conversationWith(owner.id, sitter.id))!;
  return { owner, sitter, conversationId };
}

/** A photo as a phone sends it: JPEG with EXIF (camera model and GPS position). */
async function phonePhoto() {
  return sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 120, g: 160, b: 90 } } })
    .jpeg()
    .withExif({ IFD0: { Model: "Pixel 9" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "40/1 25/1 0/1" } })
    .toBuffer();
}

/** Real one-second videos (see media/videos.test.ts for how they were made). */
const video = (name: string) => readFileSync(path.resolve("tests/fixtures/videos", name));
const mp4 = video("clip.mp4");
const webm = video("clip.webm");
/** The first bytes of an MP4 or WebM file and nothing else: what used to pass for a video. */
const mp4Header = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from("ftypisom"), Buffer.alloc(200)]);
const webmHeader = Buffer.concat([
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]),
  Buffer.from("webm"),
  Buffer.alloc(200),
]);
const heic = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypheic"), Buffer.alloc(200)]);

describe("conversations", () => {
  it("opens only between people who matched or have a booking, and one per pair", async () => {
    const { owner, sitter, conversationId } = await matched();
    const stranger = await person("owner");
    expect(await conversationWith(sitter.id, owner.id)).toBe(conversationId);
    expect(await ensureConversation(sitter.id, owner.id)).toBe(conversationId);
    expect(await conversationWith(stranger.id, owner.id)).toBeNull();
    expect(await conversationWith(owner.id, owner.id)).toBeNull();
  });

  it("a stranger can neither read nor post, and nothing is written", async () => {
    const { conversationId } = await matched();
    const stranger = await person("owner");
    expect(await readConversation(stranger.id, conversationId)).toBeNull();
    expect(await sendMessage(stranger.id, conversationId, "spam", null, EMPTY_TEXT)).toEqual({ status: "not-found" });
    const count = await db
      .selectFrom("messages")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("conversation_id", "=", conversationId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it("refuses an empty message, keeps text as text, and counts unread messages until read", async () => {
    const { owner, sitter, conversationId } = await matched();
    expect(await sendMessage(owner.id, conversationId, "   \n ", null, EMPTY_TEXT)).toEqual({ status: "empty" });
    await sendMessage(
      owner.id,
      conversationId,
      "<script>alert(1)</script>'); drop table messages; --",
      null,
      EMPTY_TEXT,
    );
    await sendMessage(owner.id, conversationId, "Second", null, EMPTY_TEXT);
    expect(await unreadMessageCount(sitter.id)).toBe(2);
    expect(await unreadMessageCount(owner.id)).toBe(0);
    const [summary] = await listConversations(sitter.id);
    expect(summary).toMatchObject({
      id: conversationId,
      unread: 2,
      lastMessage: { body: "Second", mine: false },
      other: { id: owner.id, label: "owner" },
    });
    const opened = await readConversation(sitter.id, conversationId);
    expect(opened!.messages.map((message) => message.body)).toEqual([
      "<script>alert(1)</script>'); drop table messages; --",
      "Second",
    ]);

    // The sitter was notified of each message; opening the conversation reads those too.
    expect(await countUnread(sitter.id)).toBe(2);
    await markConversationRead(sitter.id, conversationId);
    expect(await unreadMessageCount(sitter.id)).toBe(0);
    expect(await countUnread(sitter.id)).toBe(0);
  });

  it("lists the person's own conversations, latest activity first, each with its photo, unread count and latest booking", async () => {
    const owner = await ownerWithPet();
    const quiet = await sitterWithSlot();
    const busy = await sitterWithSlot();
    const strangers = await matched();
    const withQuiet = (await ensureConversation(owner.id, quiet.id))!;
    const withBusy = (await ensureConversation(owner.id, busy.id))!;
    await addPhotos({ userId: busy.id, petId: null }, [await phonePhoto()]);
    await requested(owner, quiet);
    await sendMessage(quiet.id, withQuiet, "Hello", null, EMPTY_TEXT);
    await sendMessage(busy.id, withBusy, "One", null, EMPTY_TEXT);
    await sendMessage(owner.id, withBusy, "Two", null, EMPTY_TEXT);
    await sendMessage(busy.id, withBusy, "Three", null, EMPTY_TEXT);
    await sendMessage(strangers.owner.id, strangers.conversationId, "Not yours", null, EMPTY_TEXT);

    const list = await listConversations(owner.id);
    expect(list.map((conversation) => conversation.id)).toEqual([withBusy, withQuiet]);
    expect(list[0]).toMatchObject({
      other: { id: busy.id, label: "companion" },
      lastMessage: { body: "Three", mine: false },
      unread: 1,
      bookingStatus: null,
    });
    expect(list[0]!.other.photo).toMatch(/^\/media\//);
    expect(list[1]).toMatchObject({
      other: { id: quiet.id, photo: null },
      lastMessage: { body: "Hello", mine: false },
      unread: 1,
      bookingStatus: "requested",
    });
    // The sitter sees the same booking beside the owner's name (the booking runs the other way for them).
    expect(await listConversations(quiet.id)).toMatchObject([
      { id: withQuiet, other: { id: owner.id, label: "owner" }, bookingStatus: "requested" },
    ]);
    await markConversationRead(owner.id, withQuiet);
    expect((await listConversations(owner.id))[1]!.unread).toBe(0);
    // A conversation nobody has written in yet is listed, without a last message.
    const silent = await sitterWithSlot();
    const withSilent = await ensureConversation(owner.id, silent.id);
    expect((await listConversations(owner.id)).find((conversation) => conversation.id === withSilent)).toMatchObject({
      lastMessage: null,
      unread: 0,
    });
  });
});

describe("attachments", () => {
  it("keeps whole MP4 and WebM videos as sent; refuses look-alikes, truncated and sound-only files, and anything named as a video that is not one", async () => {
    for (const [data, format] of [
      [mp4, "mp4"],
      [webm, "webm"],
    ] as const) {
      const stored = await storeAttachment(data, `video/${format}`);
      if ("refusal" in stored) throw new Error(stored.refusal);
      expect(stored).toMatchObject({
        type: "video",
        previewKey: null,
        key: expect.stringMatching(new RegExp(`\\.${format}$`)) as string,
      });
      expect(await fileStorage.read(stored.key)).toEqual(data);
      await discardAttachment(stored);
    }
    const invalid = { refusal: "messages:errors.invalidType" };
    for (const data of [
      mp4Header,
      webmHeader,
      heic,
      mp4.subarray(0, mp4.length - 1),
      video("audio-only.mp4"),
      Buffer.from("<html>not a video</html>"),
    ]) {
      expect(await storeAttachment(data)).toEqual(invalid);
    }
    // A photo is taken for what it is, but not when it comes named as a video.
    expect(await storeAttachment(await phonePhoto(), "video/mp4")).toEqual(invalid);
    expect(await storeAttachment(await phonePhoto(), "image/jpeg")).toMatchObject({ type: "image" });
  });

  it("re-encodes a photo to WebP in two sizes without its metadata", async () => {
    const stored = await storeAttachment(await phonePhoto());
    if ("refusal" in stored) throw new Error(stored.refusal);
    expect(stored.type).toBe("image");
    const full = (await fileStorage.read(stored.key))!;
    const meta = await sharp(full).metadata();
    expect(meta.format).toBe("webp");
    expect(meta.exif).toBeUndefined();
    expect(await fileStorage.read(stored.previewKey!)).not.toBeNull();
    await discardAttachment(stored);
    expect(await fileStorage.read(stored.key)).toBeNull();
  });

  it("keeps a video as sent and refuses fake or oversized files", async () => {
    const stored = await storeAttachment(webm);
    expect(stored).toMatchObject({ type: "video", previewKey: null });
    expect(await storeAttachment(Buffer.from("<html><script>alert(1)</script></html>"))).toEqual({
      refusal: "messages:errors.invalidType",
    });
    expect(await storeAttachment(Buffer.alloc(10 * 1024 * 1024 + 1))).toEqual({ refusal: "messages:errors.tooLarge" });
  });

  it("sends an attachment with the default text, and only the two people may open it", async () => {
    const { owner, sitter, conversationId } = await matched();
    const stranger = await person("owner");
    const stored = await storeAttachment(await phonePhoto());
    if ("refusal" in stored) throw new Error(stored.refusal);
    await sendMessage(owner.id, conversationId, "", stored, EMPTY_TEXT);
    const opened = await readConversation(sitter.id, conversationId);
    expect(opened!.messages[0]).toMatchObject({
      body: "📷 Image",
      media: { type: "image", url: `/media/${stored.key}`, previewUrl: `/media/${stored.previewKey}` },
    });
    for (const key of [stored.key, stored.previewKey!]) {
      expect(await mayViewMedia(owner, key)).toBe(true);
      expect(await mayViewMedia(sitter, key)).toBe(true);
      expect(await mayViewMedia(stranger, key)).toBe(false);
    }
    // Profile photos stay visible to every signed-in person.
    expect(await mayViewMedia(stranger, `${randomUUID()}-card.webp`)).toBe(true);
  });
});

describe("notifications of messages", () => {
  it("show in the Messages tab, not in Bookings, grouped under Today", async () => {
    const { owner, sitter, conversationId } = await matched();
    await sendMessage(owner.id, conversationId, "Hello", null, EMPTY_TEXT);
    const user = { id: sitter.id, time_zone: "Europe/Madrid" };
    const messages = await listNotifications(user, "messages");
    expect(messages).toHaveLength(1);
    expect(messages[0]!.group).toBe("today");
    expect(messages[0]!.items[0]).toMatchObject({ type: "message", read: false, data: { preview: "Hello" } });
    expect(await listNotifications(user, "bookings")).toEqual([]);
  });
});
