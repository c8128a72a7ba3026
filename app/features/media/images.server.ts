import sharp, { type Metadata, type SharpOptions } from "sharp";

import { IMAGE_MAX_BYTES } from "./limits";

export { IMAGE_MAX_BYTES, PHOTOS_MAX } from "./limits";

// Larger than any phone camera's; refusing above it keeps a small file from inflating to gigabytes.
const MAX_INPUT_PIXELS = 40_000_000;
const FULL_SIZE = 1600;
const CARD_SIZE = 640;
const WEBP_QUALITY = 80;

export type ImageRejection = "media.notAnImage" | "media.tooLarge";

export class ImageRejected extends Error {
  readonly reason: ImageRejection;
  constructor(reason: ImageRejection) {
    super(reason);
    this.name = "ImageRejected";
    this.reason = reason;
  }
}

export type SourceFormat = "jpeg" | "png" | "gif" | "webp";

export interface ProcessedImage {
  card: Buffer;
  full: Buffer;
  width: number;
  height: number;
  sourceFormat: SourceFormat;
}

// Checked before sharp sees the data, so untrusted bytes never reach parsers of formats we refuse anyway.
export function signatureFormat(input: Buffer): SourceFormat | null {
  if (input.length >= 3 && input[0] === 0xff && input[1] === 0xd8 && input[2] === 0xff) return "jpeg";
  if (input.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  const head = input.subarray(0, 6).toString("latin1");
  if (head === "GIF87a" || head === "GIF89a") return "gif";
  if (input.subarray(0, 4).toString("latin1") === "RIFF" && input.subarray(8, 12).toString("latin1") === "WEBP")
    return "webp";
  return null;
}

const decodeOptions: SharpOptions = {
  // "truncated" rather than "error": phones write JPEGs with harmless warnings that "error" would refuse.
  failOn: "truncated",
  limitInputPixels: MAX_INPUT_PIXELS,
};

// The format is read from the content, never the name. Re-encoding drops every metadata block (EXIF GPS
// included); an animated GIF or WebP keeps its first frame only.
export async function processImage(input: Buffer, { maxBytes = IMAGE_MAX_BYTES } = {}): Promise<ProcessedImage> {
  if (input.length > maxBytes) throw new ImageRejected("media.tooLarge");
  const claimed = signatureFormat(input);
  if (!claimed) throw new ImageRejected("media.notAnImage");

  let metadata: Metadata;
  try {
    // Reading the header decodes no pixels, so the pixel limit is applied below, with its own answer.
    metadata = await sharp(input, { ...decodeOptions, limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejected("media.notAnImage");
  }
  if (metadata.format !== claimed || !metadata.width || !metadata.height) throw new ImageRejected("media.notAnImage");
  // A 50-megapixel camera original is "too large", not "not an image".
  if (metadata.width * metadata.height > MAX_INPUT_PIXELS) throw new ImageRejected("media.tooLarge");

  const oriented = sharp(input, decodeOptions).rotate();
  const encode = (size: number) =>
    oriented
      .clone()
      .resize(size, size, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: WEBP_QUALITY })
      .toBuffer({ resolveWithObject: true });
  try {
    const [full, card] = await Promise.all([encode(FULL_SIZE), encode(CARD_SIZE)]);
    return {
      full: full.data,
      card: card.data,
      width: full.info.width,
      height: full.info.height,
      sourceFormat: claimed,
    };
  } catch {
    // libvips says "truncated", "corrupt" or "premature end" in many ways: all mean the file is not one we keep.
    throw new ImageRejected("media.notAnImage");
  }
}

/** Every image processed, or the first one's reason for refusal. */
export async function processImages(
  images: Buffer[],
): Promise<{ ok: true; processed: ProcessedImage[] } | { ok: false; problem: ImageRejected["reason"] }> {
  const processed: ProcessedImage[] = [];
  try {
    for (const image of images) processed.push(await processImage(image));
  } catch (error) {
    if (error instanceof ImageRejected) return { ok: false, problem: error.reason };
    throw error;
  }
  return { ok: true, processed };
}
