// Checking a ~10 MB chat video (MP4 and WebM); figures only: it runs on the request, so it should stay
// well under 100 ms. Run: `npx tsx bench/video-check.ts` (needs ffmpeg).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { CHAT_FILE_MAX_BYTES } from "~/features/media";
import { checkVideo } from "~/features/media/index.server";
import { runsAlone } from "./support";

const RUNS = 7;

const VIDEOS = {
  mp4: [
    "-f",
    "lavfi",
    "-i",
    "testsrc2=size=640x360:rate=30:duration=38",
    "-f",
    "lavfi",
    "-i",
    "sine=duration=38",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-b:v",
    "2000k",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-b:a",
    "64k",
  ],
  webm: [
    "-f",
    "lavfi",
    "-i",
    "testsrc2=size=320x180:rate=30:duration=9",
    "-vf",
    "noise=alls=60:allf=t",
    "-c:v",
    "libvpx",
    "-deadline",
    "realtime",
    "-cpu-used",
    "16",
    "-crf",
    "4",
    "-b:v",
    "8M",
    "-an",
  ],
};

export interface VideoCheckFigures {
  format: string;
  bytes: number;
  p50Ms: number;
  maxMs: number;
}

export function measureVideoCheck({ log = console.log } = {}): VideoCheckFigures[] {
  if (spawnSync("ffmpeg", ["-version"]).status !== 0) {
    log("ffmpeg is not installed: no video to measure (apt-get install ffmpeg)");
    return [];
  }
  const dir = mkdtempSync(path.join(tmpdir(), "video-check-"));
  const figures: VideoCheckFigures[] = [];
  try {
    for (const [format, args] of Object.entries(VIDEOS)) {
      const file = path.join(dir, `video.${format}`);
      const made = spawnSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args, file]);
      if (made.status !== 0) throw new Error(`ffmpeg could not make the ${format} video: ${made.stderr.toString()}`);
      const data = readFileSync(file);
      if (data.length > CHAT_FILE_MAX_BYTES)
        throw new Error(`the ${format} video is over the limit (${data.length} bytes)`);
      const result = checkVideo(data);
      if (!result.ok) throw new Error(`the ${format} video was refused: ${result.reason}`);
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const start = performance.now();
        checkVideo(data);
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      const entry = { format, bytes: data.length, p50Ms: times[Math.floor(RUNS / 2)]!, maxMs: times[RUNS - 1]! };
      figures.push(entry);
      log(
        `${format.padEnd(5)} ${(data.length / 1024 / 1024).toFixed(2)} MB, ${result.seconds.toFixed(0)} s: checkVideo p50 ${entry.p50Ms.toFixed(1)} ms, max ${entry.maxMs.toFixed(1)} ms over ${RUNS} runs (after one warm-up)`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

if (runsAlone(import.meta.url)) measureVideoCheck();
