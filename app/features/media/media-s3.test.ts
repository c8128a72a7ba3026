import { randomBytes, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startS3StandIn, type S3StandIn } from "~/testing/s3";

/**
 * The app with MEDIA_STORAGE=s3, against an S3-compatible server in this process: photos go up
 * through the upload route into the bucket and come back only through /media/{key}.
 * The environment is read once when the app's modules load, so they are imported after it is set.
 */

const MB = 1024 * 1024;
const context = { cspNonce: "", clientAddress: "127.0.0.1" };

let standIn: S3StandIn;
let app: Awaited<ReturnType<typeof loadApp>>;

async function loadApp() {
  const [media, mediaRoute, photosRoute, people, messages, clock] = await Promise.all([
    import("./index.server"),
    import("~/routes/media.$key"),
    import("~/routes/photos"),
    import("~/testing/people"),
    import("~/features/messages/index.server"),
    import("~/platform/clock.server"),
  ]);
  return { media, mediaRoute, photosRoute, people, messages, clock };
}

beforeAll(async () => {
  standIn = await startS3StandIn();
  Object.assign(process.env, standIn.variables);
  app = await loadApp();
});
afterAll(async () => {
  await standIn?.stop();
});

/** The route's answer, returned or thrown. */
async function get(
  key: string,
  cookie: string | null,
  headers: Record<string, string> = {},
  whenWritable?: () => Promise<boolean>,
): Promise<Response> {
  const request = new Request(`http://localhost/media/${key}`, {
    headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers },
  });
  try {
    return (await app.mediaRoute.loader({
      request,
      params: { key },
      context: { ...context, whenWritable },
    })) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function chunksOf(response: Response): Promise<{ data: Buffer; largestChunk: number }> {
  const chunks: Uint8Array[] = [];
  const reader = response.body!.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return { data: Buffer.concat(chunks), largestChunk: Math.max(0, ...chunks.map((chunk) => chunk.byteLength)) };
}

const photoFile = async () =>
  sharp({ create: { width: 120, height: 90, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .png()
    .toBuffer();

describe("media in an S3 bucket", () => {
  it("stores an uploaded photo in the bucket, serves it through /media with the usual headers, and deletes it there", async () => {
    const { media, photosRoute, people } = app;
    expect(media.fileStorage.kind).toBe("s3");
    const sitter = await people.person("sitter", { signedIn: true });
    const form = new FormData();
    form.append("photos", new File([await photoFile()], "garden.png", { type: "image/png" }));
    const upload = new Request("http://localhost/photos", {
      method: "POST",
      body: form,
      headers: { Cookie: sitter.cookie },
    });
    const answer = (await photosRoute.action({ request: upload, params: {}, context })) as Response;
    expect(answer.status).toBe(302);

    const [photo] = await media.listPhotos({ userId: sitter.id, petId: null });
    expect(photo).toBeDefined();
    for (const key of [photo!.card_key, photo!.full_key]) {
      expect(await media.fileStorage.size(key)).toBeGreaterThan(0);
      expect(existsSync(path.join(process.env.DATA_DIR!, "media", key))).toBe(false);
    }

    const member = await people.person("owner", { signedIn: true });
    const served = await get(photo!.full_key, member.cookie);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/webp");
    expect(served.headers.get("Cache-Control")).toBe("private, max-age=31536000, immutable");
    expect(served.headers.get("Accept-Ranges")).toBe("bytes");
    const body = Buffer.from(await served.arrayBuffer());
    expect(body).toEqual(await media.fileStorage.read(photo!.full_key));
    expect(served.headers.get("Content-Length")).toBe(String(body.byteLength));
    expect(body.subarray(0, 4).toString("latin1")).toBe("RIFF");

    // Signed out: sent to sign in, never the file.
    const anonymous = await get(photo!.full_key, null);
    expect(anonymous.status).toBe(302);

    expect(await media.deletePhoto(sitter.id, photo!.id)).toBe("deleted");
    expect(await media.fileStorage.size(photo!.card_key)).toBeNull();
    expect(await media.fileStorage.size(photo!.full_key)).toBeNull();
    expect((await get(photo!.full_key, member.cookie)).status).toBe(404);
  });

  it("streams a 10 MB chat video from the bucket, whole or by range, only to the two people in the conversation", async () => {
    const { media, people, messages } = app;
    const owner = await people.person("owner", { signedIn: true });
    const sitter = await people.person("sitter", { signedIn: true });
    const stranger = await people.person("sitter", { signedIn: true });
    const conversationId = await messages.ensureConversation(owner.id, sitter.id);
    const key = `${randomUUID()}.mp4`;
    const video = randomBytes(10 * MB);
    await media.fileStorage.put(key, video);
    expect(
      await messages.sendMessage(
        sitter.id,
        conversationId,
        "",
        { type: "video", key, previewKey: null },
        { image: "📷", video: "🎥" },
      ),
    ).toMatchObject({ status: "sent" });

    const read = vi.spyOn(media.fileStorage, "read");
    const whole = await get(key, owner.cookie);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Content-Type")).toBe("video/mp4");
    expect(whole.headers.get("Content-Length")).toBe(String(10 * MB));
    const { data, largestChunk } = await chunksOf(whole);
    expect(data.equals(video)).toBe(true);
    // Piece by piece from the bucket, never the whole file in one buffer.
    expect(largestChunk).toBeLessThanOrEqual(MB);
    expect(read).not.toHaveBeenCalled();

    const seek = await get(key, sitter.cookie, { Range: "bytes=5000000-5000999" });
    expect(seek.status).toBe(206);
    expect(seek.headers.get("Content-Range")).toBe(`bytes 5000000-5000999/${10 * MB}`);
    expect(seek.headers.get("Content-Length")).toBe("1000");
    expect(seek.headers.get("Cache-Control")).toBe("private, max-age=31536000, immutable");
    expect(Buffer.from(await seek.arrayBuffer())).toEqual(video.subarray(5_000_000, 5_001_000));

    const tail = await get(key, owner.cookie, { Range: "bytes=-100" });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(video.subarray(10 * MB - 100));

    const beyond = await get(key, owner.cookie, { Range: `bytes=${20 * MB}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("Content-Range")).toBe(`bytes */${10 * MB}`);

    expect((await get(key, stranger.cookie)).status).toBe(404);
    expect((await get(key, stranger.cookie, { Range: "bytes=0-99" })).status).toBe(404);
    expect((await get(`${randomUUID()}.mp4`, owner.cookie)).status).toBe(404);
    expect((await get("../trusted-sitters.db", owner.cookie)).status).toBe(404);
    read.mockRestore();
  });

  it("reads the bucket only as fast as the client takes it, and stops reading when the client goes", async () => {
    const { media, people, messages } = app;
    const owner = await people.person("owner", { signedIn: true });
    const sitter = await people.person("sitter");
    const conversationId = await messages.ensureConversation(owner.id, sitter.id);
    const key = `${randomUUID()}.webm`;
    const video = randomBytes(10 * MB);
    await media.fileStorage.put(key, video);
    await messages.sendMessage(
      sitter.id,
      conversationId,
      "",
      { type: "video", key, previewKey: null },
      { image: "📷", video: "🎥" },
    );

    // The client takes three pieces, then goes away: the rest is never fetched.
    let asked = 0;
    const leaving = await get(key, owner.cookie, {}, async () => ++asked <= 3);
    const { data } = await chunksOf(leaving);
    expect(asked).toBe(4);
    expect(data.byteLength).toBeGreaterThan(0);
    expect(data.byteLength).toBeLessThanOrEqual(3 * MB);
    expect(data.equals(video.subarray(0, data.byteLength))).toBe(true);

    // A client whose connection is full: nothing more is read until it has room again.
    let makeRoom: (writable: boolean) => void = () => undefined;
    const full = await get(
      key,
      owner.cookie,
      { Range: "bytes=0-99" },
      () => new Promise<boolean>((resolve) => (makeRoom = resolve)),
    );
    const reader = full.body!.getReader();
    const firstPiece = reader.read();
    const early = await Promise.race([
      firstPiece.then(() => "read"),
      new Promise((resolve) => setTimeout(() => resolve("waiting"), 300)),
    ]);
    expect(early).toBe("waiting");
    makeRoom(true);
    expect(Buffer.from((await firstPiece).value!)).toEqual(video.subarray(0, 100));
    await reader.cancel();
  });

  it("removes expired pending uploads from the bucket", async () => {
    const { media, people, clock } = app;
    const owner = await people.person("owner");
    expect(await media.keepPendingUploads(owner.id, "pet-setup", [await photoFile()])).toEqual({ status: "kept" });
    const [kept] = await media.listPendingUploads(owner.id, "pet-setup");
    const cardKey = kept!.cardUrl.replace("/media/", "");
    expect(await media.fileStorage.size(cardKey)).toBeGreaterThan(0);
    clock.advanceClock(media.PENDING_UPLOAD_TTL_MS + 60_000);
    try {
      expect(await media.purgeExpiredPendingUploads()).toBeGreaterThanOrEqual(1);
    } finally {
      clock.resetClock();
    }
    expect(await media.fileStorage.size(cardKey)).toBeNull();
  });
});
