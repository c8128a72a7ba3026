import { existsSync } from "node:fs";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { env } from "~/platform/env.server";
import { IMAGE_MAX_BYTES, ImageRejected, processImage } from "./images.server";
import { fileStorage, removeImage, storeImage } from "./storage.server";
import { readImageUpload } from "./upload.server";

const MB = 1024 * 1024;

/** Random pixels, so the encoded file does not compress away and a cut really loses data. */
function noisy(width: number, height: number) {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919 + ((i / 3) | 0) * 104729) % 251;
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 120, g: 160, b: 90 } } });

async function rejection(input: Buffer): Promise<string> {
  try {
    await processImage(input);
  } catch (error) {
    if (error instanceof ImageRejected) return error.reason;
    throw error;
  }
  return "accepted";
}

function isWebp(data: Buffer): boolean {
  return data.subarray(0, 4).toString("latin1") === "RIFF" && data.subarray(8, 12).toString("latin1") === "WEBP";
}

/** A valid PNG header that claims 20000x20000 pixels: tiny on disk, 1.2 GB once decoded. */
function pngBomb(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(20_000, 0);
  header.writeUInt32BE(20_000, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.alloc(1024))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("processImage", () => {
  it("identifies a PNG by its content whatever it is called, and re-encodes it to WebP", async () => {
    const namedAsJpg = new File([await solid(300, 200).png().toBuffer()], "holiday.jpg", { type: "image/jpeg" });
    const image = await processImage(Buffer.from(await namedAsJpg.arrayBuffer()));
    expect(image.sourceFormat).toBe("png");
    expect(isWebp(image.full)).toBe(true);
    expect(isWebp(image.card)).toBe(true);
    expect({ width: image.width, height: image.height }).toEqual({ width: 300, height: 200 });
  });

  it("accepts GIF (first frame) and WebP", async () => {
    const frame = (r: number) =>
      sharp({ create: { width: 40, height: 30, channels: 3, background: { r, g: 0, b: 0 } } })
        .png()
        .toBuffer();
    const animated = await sharp(await Promise.all([frame(0), frame(128), frame(255)]), { join: { animated: true } })
      .gif()
      .toBuffer();
    const gif = await processImage(animated);
    expect(gif).toMatchObject({ sourceFormat: "gif", width: 40, height: 30 });
    expect((await sharp(gif.full).metadata()).pages ?? 1).toBe(1);
    expect((await processImage(await solid(50, 50).webp().toBuffer())).sourceFormat).toBe("webp");
  });

  it("drops EXIF, GPS position included", async () => {
    const withGps = await noisy(320, 240)
      .jpeg()
      .withExif({
        IFD0: { Make: "PhoneMaker", Model: "Phone 12" },
        IFD3: { GPSLatitudeRef: "N", GPSLatitude: "40/1 25/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "3/1 42/1 0/1" },
      })
      .toBuffer();
    const exif = (await sharp(withGps).metadata()).exif;
    expect(exif).toBeDefined();
    // The GPSInfo pointer (tag 0x8825, little-endian) shows the position really is in the fixture.
    expect(exif!.includes(Buffer.from([0x25, 0x88]))).toBe(true);

    const image = await processImage(withGps);
    for (const version of [image.full, image.card]) {
      const metadata = await sharp(version).metadata();
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect(version.includes(Buffer.from("PhoneMaker"))).toBe(false);
    }
  });

  it("turns the picture upright from its EXIF orientation", async () => {
    const sideways = await solid(200, 100).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const image = await processImage(sideways);
    expect(image).toMatchObject({ width: 100, height: 200 });
    expect(await sharp(image.card).metadata()).toMatchObject({ width: 100, height: 200 });
  });

  it("refuses what is not a JPEG, PNG, GIF or WebP image", async () => {
    const jpeg = await noisy(400, 300).jpeg().toBuffer();
    expect(await rejection(Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>"))).toBe(
      "media.notAnImage",
    );
    expect(
      await rejection(
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
        ),
      ),
    ).toBe("media.notAnImage");
    expect(await rejection(jpeg.subarray(0, jpeg.length / 2))).toBe("media.notAnImage");
    expect(await rejection(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from("<html></html>")]))).toBe(
      "media.notAnImage",
    );
    expect(await rejection(await solid(20, 20).tiff().toBuffer())).toBe("media.notAnImage");
    expect(await rejection(Buffer.alloc(0))).toBe("media.notAnImage");
  });

  it("refuses files over 5 MB and images that would decode to too many pixels", async () => {
    expect(await rejection(Buffer.alloc(6 * MB))).toBe("media.tooLarge");
    expect(await rejection(pngBomb())).toBe("media.tooLarge");
  });

  it("fits a tall photo inside 1600 px (full) and 640 px (card), and never enlarges a small one", async () => {
    const tall = await processImage(await solid(3000, 4000).jpeg().toBuffer());
    expect({ width: tall.width, height: tall.height }).toEqual({ width: 1200, height: 1600 });
    const card = await sharp(tall.card).metadata();
    expect({ width: card.width, height: card.height }).toEqual({ width: 480, height: 640 });

    const small = await processImage(await solid(120, 80).png().toBuffer());
    expect((await sharp(small.card).metadata()).width).toBe(120);
    expect(small.width).toBe(120);
  });
});

describe("file storage", () => {
  it("stores both versions under random keys and removes them again", async () => {
    const image = await processImage(await solid(100, 100).png().toBuffer());
    const keys = await storeImage(image);
    expect(keys.cardKey).toMatch(/^[0-9a-f-]{36}-card\.webp$/);
    expect(keys.fullKey).toMatch(/^[0-9a-f-]{36}-full\.webp$/);
    expect(existsSync(path.join(env.DATA_DIR, "media", keys.fullKey))).toBe(true);
    expect(await fileStorage.read(keys.cardKey)).toEqual(image.card);
    expect(await fileStorage.read(keys.fullKey)).toEqual(image.full);

    await removeImage(keys);
    expect(await fileStorage.read(keys.cardKey)).toBeNull();
    await expect(removeImage(keys)).resolves.toBeUndefined();
  });

  it("refuses keys it did not choose", async () => {
    for (const key of ["../../etc/passwd", "../x.webp", "a/b.webp", "ABC.webp", "x.webp.", "x.html", ""]) {
      await expect(fileStorage.read(key)).rejects.toThrow(/Invalid media key/);
      await expect(fileStorage.put(key, Buffer.from("x"))).rejects.toThrow(/Invalid media key/);
      await expect(fileStorage.remove(key)).rejects.toThrow(/Invalid media key/);
    }
  });
});

describe("readImageUpload", () => {
  const upload = (body: BodyInit, headers?: HeadersInit) =>
    new Request("http://localhost/photos", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  const options = { field: "photos", maxFiles: 6 };
  const png = () => solid(30, 20).png().toBuffer();

  /** A body written the way a browser writes it, for what Node's FormData does differently. */
  function browserBody(parts: string[]): { body: string; headers: HeadersInit } {
    const boundary = "----WebKitFormBoundaryTest123";
    const body = parts.map((part) => `--${boundary}\r\n${part}\r\n`).join("") + `--${boundary}--\r\n`;
    return { body, headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` } };
  }

  it("returns the images in order, with the types the browser declared, and the text fields", async () => {
    const [first, second] = [await png(), await noisy(20, 20).jpeg().toBuffer()];
    const form = new FormData();
    form.append("petId", "pet-1");
    form.append("photos", new File([first], "one.jpg", { type: "image/jpeg" }));
    form.append("photos", new File([second], "two.png", { type: "image/png" }));
    form.append("redirectTo", "/pets/pet-1");
    const result = await readImageUpload(upload(form), options);
    if ("error" in result) throw new Error(result.error);
    expect(result.images).toEqual([first, second]);
    expect(result.declaredTypes).toEqual(["image/jpeg", "image/png"]);
    expect(result.formData.get("petId")).toBe("pet-1");
    expect(result.formData.get("redirectTo")).toBe("/pets/pet-1");
    expect(result.formData.has("photos")).toBe(false);
  });

  it("refuses more files than allowed", async () => {
    const form = new FormData();
    for (let i = 0; i < 7; i++) form.append("photos", new File([await png()], `${i}.png`));
    expect(await readImageUpload(upload(form), options)).toEqual({ error: "media.tooMany" });
  });

  it("refuses a file over 5 MB", async () => {
    const form = new FormData();
    form.append("photos", new File([Buffer.alloc(6 * MB, 1)], "big.jpg"));
    expect(await readImageUpload(upload(form), options)).toEqual({ error: "media.tooLarge" });
  });

  it("reads an oversized file only up to the whole-body limit, then cuts the client off", async () => {
    const boundary = "limit-test";
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          new TextEncoder().encode(
            `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="a.jpg"\r\n\r\n`,
          ),
        );
      },
      pull(controller) {
        pulled += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(7));
      },
      cancel() {
        cancelled = true;
      },
    });
    const result = await readImageUpload(
      upload(endless, { "Content-Type": `multipart/form-data; boundary=${boundary}` }),
      options,
    );
    expect(result).toEqual({ error: "media.tooLarge" });
    // A refused file is drained (so a browser still gets the answer), but never past the body limit.
    expect(pulled).toBeLessThan(options.maxFiles * IMAGE_MAX_BYTES + 2 * MB);
    // The pipe cancels its source on a later turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cancelled).toBe(true);
  });

  it("counts the whole body even without a Content-Length", async () => {
    let pulled = 0;
    const preamble = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(65));
      },
    });
    const result = await readImageUpload(upload(preamble, { "Content-Type": "multipart/form-data; boundary=never" }), {
      ...options,
      maxFiles: 1,
    });
    expect(result).toEqual({ error: "media.tooLarge" });
    expect(pulled).toBeLessThan(IMAGE_MAX_BYTES + 3 * MB);
  });

  it("refuses a declared Content-Length over the limit without reading the body", async () => {
    const request = upload("x", {
      "Content-Type": "multipart/form-data; boundary=x",
      "Content-Length": String(100 * MB),
    });
    expect(await readImageUpload(request, options)).toEqual({ error: "media.tooLarge" });
    expect(request.bodyUsed).toBe(false);
  });

  it("skips a file input left empty", async () => {
    const image = await png();
    const form = new FormData();
    form.append("photos", new File([], ""));
    form.append("photos", new File([image], "cat.png"));
    const fromNode = await readImageUpload(upload(form), options);
    expect("images" in fromNode && fromNode.images).toEqual([image]);

    const { body, headers } = browserBody([
      'Content-Disposition: form-data; name="petId"\r\n\r\npet-2',
      'Content-Disposition: form-data; name="photos"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n',
    ]);
    const fromBrowser = await readImageUpload(upload(body, headers), options);
    if ("error" in fromBrowser) throw new Error(fromBrowser.error);
    expect(fromBrowser.images).toEqual([]);
    expect(fromBrowser.formData.get("petId")).toBe("pet-2");
  });

  it("refuses files under another name and oversized text fields", async () => {
    const other = new FormData();
    other.append("avatar", new File([await png()], "a.png"));
    expect(await readImageUpload(upload(other), options)).toEqual({ error: "media.badRequest" });

    const longText = new FormData();
    longText.append("note", "x".repeat(10_001));
    expect(await readImageUpload(upload(longText), options)).toEqual({ error: "media.badRequest" });
  });

  it("refuses a body that is not multipart", async () => {
    const json = upload(JSON.stringify({ photos: [] }), { "Content-Type": "application/json" });
    expect(await readImageUpload(json, options)).toEqual({ error: "media.badRequest" });
    const malformed = upload("--x\r\nX-Not-A-Disposition: 1\r\n\r\nvalue\r\n--x--\r\n", {
      "Content-Type": "multipart/form-data; boundary=x",
    });
    expect(await readImageUpload(malformed, options)).toEqual({ error: "media.badRequest" });
  });
});
