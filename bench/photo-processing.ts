// Time to turn a phone photo into the stored WebP versions, and what they weigh; figures only, no target.
// Run: `npx tsx bench/photo-processing.ts`.
import { performance } from "node:perf_hooks";
import sharp from "sharp";
import { runsAlone } from "./support";

const WIDTH = 4000;
const HEIGHT = 3000;
const RUNS = 5;
const TARGET_BYTES = 4 * 1024 * 1024;

function hash(x: number, y: number, seed: number): number {
  let h = Math.imul(x, 374761393) ^ Math.imul(y, 668265263) ^ Math.imul(seed, 1442695041);
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 31 - 1;
}

function valueNoise(x: number, y: number, cell: number, seed: number): number {
  const gx = x / cell;
  const gy = y / cell;
  const x0 = Math.floor(gx);
  const y0 = Math.floor(gy);
  const fx = (gx - x0) * (gx - x0) * (3 - 2 * (gx - x0));
  const fy = (gy - y0) * (gy - y0) * (3 - 2 * (gy - y0));
  const top = hash(x0, y0, seed) * (1 - fx) + hash(x0 + 1, y0, seed) * fx;
  const bottom = hash(x0, y0 + 1, seed) * (1 - fx) + hash(x0 + 1, y0 + 1, seed) * fx;
  return top * (1 - fy) + bottom * fy;
}

// Flat colours would compress to almost nothing, and grain alone would vanish once scaled down.
function phonePhotoPixels(grain: number): Buffer {
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 3;
      const texture = 45 * valueNoise(x, y, 40, 1) + 30 * valueNoise(x, y, 9, 2) + 18 * valueNoise(x, y, 3, 3);
      const wave = 30 * Math.sin(x / 170) * Math.cos(y / 130);
      pixels[i] = 90 + (100 * x) / WIDTH + wave + texture + grain * hash(x, y, 4);
      pixels[i + 1] = 80 + (100 * y) / HEIGHT - wave + texture + grain * hash(x, y, 5);
      pixels[i + 2] = 120 - (70 * (x + y)) / (WIDTH + HEIGHT) + 0.6 * texture + grain * hash(x, y, 6);
    }
  }
  return pixels;
}

const encodeJpeg = (grain: number) =>
  sharp(phonePhotoPixels(grain), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();

export interface PhotoFigures {
  inputBytes: number;
  width: number;
  height: number;
  fullBytes: number;
  cardBytes: number;
  p50Ms: number;
  minMs: number;
  maxMs: number;
  runs: number;
}

export async function measurePhotoProcessing({ log = console.log } = {}): Promise<PhotoFigures> {
  // Imported when measured, not when this file is loaded: the media feature opens the app's database on
  // import, and `npm run bench` loads every bench before its children choose their own database (the
  // deck's then read the default one: no cards, or "no such table" on a fresh clone).
  const { IMAGE_MAX_BYTES, processImage } = await import("~/features/media/index.server");
  // The grain that gives about 4 MB at quality 92 depends on the encoder, so it is found rather than guessed.
  let low = 0;
  let high = 64;
  let photo = await encodeJpeg(high);
  for (let step = 0; step < 8 && Math.abs(photo.length - TARGET_BYTES) > 0.05 * TARGET_BYTES; step++) {
    const grain = (low + high) / 2;
    photo = await encodeJpeg(grain);
    if (photo.length > TARGET_BYTES) high = grain;
    else low = grain;
  }
  if (photo.length > IMAGE_MAX_BYTES) photo = await encodeJpeg(low);

  const timesMs: number[] = [];
  let result = await processImage(photo);
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    result = await processImage(photo);
    timesMs.push(performance.now() - start);
  }
  timesMs.sort((a, b) => a - b);

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  const figures: PhotoFigures = {
    inputBytes: photo.length,
    width: result.width,
    height: result.height,
    fullBytes: result.full.length,
    cardBytes: result.card.length,
    p50Ms: timesMs[Math.floor(RUNS / 2)]!,
    minMs: timesMs[0]!,
    maxMs: timesMs[RUNS - 1]!,
    runs: RUNS,
  };
  log(`input          ${WIDTH}x${HEIGHT} JPEG q92, ${(photo.length / 1024 / 1024).toFixed(2)} MB`);
  log(`full           ${result.width}x${result.height} WebP, ${kb(result.full.length)}`);
  log(`card           ${kb(result.card.length)}`);
  log(`stored total   ${kb(result.full.length + result.card.length)}`);
  log(
    `processImage   p50 ${figures.p50Ms.toFixed(0)} ms, min ${figures.minMs.toFixed(0)} ms, max ${figures.maxMs.toFixed(0)} ms over ${RUNS} runs (after one warm-up)`,
  );
  return figures;
}

if (runsAlone(import.meta.url)) await measurePhotoProcessing();
