import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3StandIn, type S3StandIn } from "~/testing/s3";
import { localFileStorage, type FileStorage } from "./file-storage.server";
import { s3FileStorage } from "./s3-storage.server";

const MB = 1024 * 1024;

async function drain(body: ReadableStream<Uint8Array>): Promise<{ data: Buffer; largestChunk: number }> {
  const chunks: Uint8Array[] = [];
  const reader = body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return { data: Buffer.concat(chunks), largestChunk: Math.max(0, ...chunks.map((chunk) => chunk.byteLength)) };
}

let standIn: S3StandIn;
let localDirectory: string;

beforeAll(async () => {
  standIn = await startS3StandIn();
  localDirectory = mkdtempSync(path.join(tmpdir(), "media-"));
});
afterAll(async () => {
  await standIn?.stop();
});

// One contract, two stores: whatever calls fileStorage (uploads, deletion, export, account deletion)
// gets the same answers from a folder and from a bucket.
describe.each([
  ["local folder", () => localFileStorage(localDirectory)],
  ["S3 bucket", () => s3FileStorage(standIn.settings)],
] as const)("file storage contract: %s", (_name, makeStore) => {
  let store: FileStorage;
  beforeAll(() => {
    store = makeStore();
  });
  const key = (extension = "webp") => `${randomUUID()}-full.${extension}`;

  it("puts, reads, sizes and removes a file", async () => {
    const name = key();
    const data = randomBytes(3000);
    await store.put(name, data);
    expect(await store.read(name)).toEqual(data);
    expect(await store.size(name)).toBe(3000);
    await store.remove(name);
    expect(await store.read(name)).toBeNull();
    expect(await store.size(name)).toBeNull();
  });

  it("answers a missing key with null, and removes it quietly", async () => {
    const name = key("mp4");
    expect(await store.read(name)).toBeNull();
    expect(await store.size(name)).toBeNull();
    expect(await store.stream(name)).toBeNull();
    expect(await store.stream(name, { start: 0, end: 9 })).toBeNull();
    await expect(store.remove(name)).resolves.toBeUndefined();
  });

  it("refuses keys it did not choose, before touching anything", async () => {
    for (const bad of [
      "../../etc/passwd",
      "../x.webp",
      "a/b.webp",
      "ABC.webp",
      "x.webp.",
      "x.html",
      "",
      "%2e%2e.webp",
      "x.webp?versionId=1",
    ]) {
      await expect(store.put(bad, Buffer.from("x"))).rejects.toThrow(/Invalid media key/);
      await expect(store.read(bad)).rejects.toThrow(/Invalid media key/);
      await expect(store.remove(bad)).rejects.toThrow(/Invalid media key/);
      await expect(store.size(bad)).rejects.toThrow(/Invalid media key/);
      await expect(store.stream(bad)).rejects.toThrow(/Invalid media key/);
    }
  });

  it("streams a byte range, with the whole file's size, and refuses a range outside the file", async () => {
    const name = key("webm");
    const data = randomBytes(1000);
    await store.put(name, data);
    const middle = await store.stream(name, { start: 100, end: 199 });
    expect(middle?.size).toBe(1000);
    expect((await drain(middle!.body)).data).toEqual(data.subarray(100, 200));
    const last = await store.stream(name, { start: 999, end: 999 });
    expect((await drain(last!.body)).data).toEqual(data.subarray(999));
    const whole = await store.stream(name);
    expect(whole?.size).toBe(1000);
    expect((await drain(whole!.body)).data).toEqual(data);
    await expect(store.stream(name, { start: 1000, end: 1000 })).rejects.toThrow(RangeError);
    await expect(store.stream(name, { start: 500, end: 1000 })).rejects.toThrow(RangeError);
    await expect(store.stream(name, { start: 20, end: 10 })).rejects.toThrow(RangeError);
    await store.remove(name);
  });

  it("keeps a 10 MB video whole, and streams it in small pieces only as they are read", async () => {
    const name = key("mp4");
    const video = randomBytes(10 * MB);
    await store.put(name, video);
    expect(await store.size(name)).toBe(10 * MB);
    // Compared as bytes: a deep equality over ten million elements takes minutes.
    expect((await store.read(name))?.equals(video)).toBe(true);

    const streamed = await store.stream(name);
    const { data, largestChunk } = await drain(streamed!.body);
    expect(data.equals(video)).toBe(true);
    expect(largestChunk).toBeLessThanOrEqual(MB);

    // A client that goes away after the first piece: the rest is never read, and the store still works.
    const abandoned = await store.stream(name);
    const reader = abandoned!.body.getReader();
    const first = await reader.read();
    expect(first.value!.byteLength).toBeLessThanOrEqual(MB);
    await reader.cancel();

    const tail = await store.stream(name, { start: 10 * MB - 5, end: 10 * MB - 1 });
    expect((await drain(tail!.body)).data).toEqual(video.subarray(10 * MB - 5));
    await store.remove(name);
    expect(await store.read(name)).toBeNull();
  });
});

describe("S3 file storage", () => {
  it("writes nothing to local disk, and reports a missing bucket as an error, not as a missing file", async () => {
    const store = s3FileStorage(standIn.settings);
    const name = `${randomUUID()}-card.webp`;
    await store.put(name, Buffer.from("webp bytes"));
    expect(readdirSync(localDirectory).some((file) => file.includes(name))).toBe(false);
    expect(existsSync(path.join(process.env.DATA_DIR ?? "", "media", name))).toBe(false);

    const elsewhere = s3FileStorage({ ...standIn.settings, bucket: "no-such-bucket" });
    // A missing bucket is a configuration error that must surface, not a missing file.
    await expect(elsewhere.read(name)).rejects.toThrow();
    await expect(elsewhere.put(`${randomUUID()}.mp4`, Buffer.from("x"))).rejects.toThrow();
  });
});
