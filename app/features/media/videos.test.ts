import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { checkVideo, VIDEO_MAX_UNEXPLAINED_BYTES } from "./videos.server";

/**
 * Real one-second videos made with ffmpeg (64x48 test pattern), committed so the tests need no ffmpeg:
 *   clip.mp4        -f lavfi -i testsrc=size=64x48:rate=10:duration=1 -f lavfi -i sine=duration=1 -c:v libx264 -c:a aac -movflags +faststart
 *   clip.webm       the same pattern, -c:v libvpx -an
 *   audio-only.mp4  -f lavfi -i sine=duration=1 -c:a aac
 *   fragmented.mp4  the pattern, -c:v libx264 -movflags +frag_keyframe+empty_moov+default_base_moof
 */
const fixture = (name: string) => readFileSync(path.resolve("tests/fixtures/videos", name));
const mp4 = fixture("clip.mp4");
const webm = fixture("clip.webm");

const refused = (data: Buffer) => expect(checkVideo(data).ok).toBe(false);

/** A copy with `value` written by `write` at the offset of `marker` plus `delta`. */
function patched(data: Buffer, marker: Buffer, delta: number, write: (copy: Buffer, at: number) => void) {
  const at = data.indexOf(marker);
  if (at < 0) throw new Error(`no ${marker.toString("hex")} in the fixture`);
  const copy = Buffer.from(data);
  write(copy, at + delta);
  return copy;
}

/** clip.mp4 with its movie duration (mvhd version 0, timescale 1000) set to `seconds`. */
const mp4Lasting = (seconds: number) =>
  patched(mp4, Buffer.from("mvhd"), 20, (copy, at) =>
    copy.writeUInt32BE(Math.round(seconds * copy.readUInt32BE(at - 4)), at),
  );
/** clip.webm with its Duration (an 8-byte float of milliseconds at the default scale) set to `seconds`. */
const webmLasting = (seconds: number) =>
  patched(webm, Buffer.from([0x44, 0x89, 0x88]), 3, (copy, at) => copy.writeDoubleBE(seconds * 1000, at));

const box = (type: string, payload: Buffer) => {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + payload.length);
  header.write(type, 4, "latin1");
  return Buffer.concat([header, payload]);
};

describe("checkVideo", () => {
  it("accepts real MP4 (plain and fragmented) and WebM files, with their duration", () => {
    expect(checkVideo(mp4)).toEqual({ ok: true, format: "mp4", seconds: 1 });
    expect(checkVideo(fixture("fragmented.mp4"))).toEqual({ ok: true, format: "mp4", seconds: 1 });
    expect(checkVideo(webm)).toEqual({ ok: true, format: "webm", seconds: 1 });
  });

  it("refuses truncated files, wherever they are cut", () => {
    for (const data of [mp4, webm, fixture("fragmented.mp4")]) {
      for (const keep of [8, 40, Math.floor(data.length / 2), data.length - 100, data.length - 1])
        refused(data.subarray(0, keep));
    }
  });

  it("refuses an MP4 with sound only", () => {
    expect(checkVideo(fixture("audio-only.mp4"))).toEqual({ ok: false, reason: "no video track" });
  });

  it("refuses a WebM header followed by garbage, and bytes after the end of a real file", () => {
    const header = webm.subarray(0, webm.indexOf(Buffer.from([0x18, 0x53, 0x80, 0x67])));
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 131 + 7) % 256));
    expect(checkVideo(Buffer.concat([header, garbage]))).toEqual({ ok: false, reason: "no segment" });
    expect(checkVideo(Buffer.concat([webm, garbage]))).toEqual({ ok: false, reason: "bytes after the segment" });
    expect(checkVideo(Buffer.concat([mp4, garbage]))).toEqual({ ok: false, reason: "box structure" });
    refused(Buffer.concat([mp4, Buffer.from("<script>alert(1)</script>")]));
  });

  it("refuses an HTML page dressed up with an ftyp box, and a JPEG named .mp4", async () => {
    const ftyp = box("ftyp", Buffer.from("isom\0\0\x02\0isomiso2avc1mp41", "latin1"));
    expect(
      checkVideo(
        Buffer.concat([
          ftyp,
          Buffer.from("<!doctype html><html><body><script>alert(document.cookie)</script></body></html>"),
        ]),
      ),
    ).toEqual({ ok: false, reason: "box structure" });
    // Inside a box of its own the page makes a well-formed file, but with no movie.
    expect(
      checkVideo(Buffer.concat([ftyp, box("free", Buffer.from("<html><script>alert(1)</script></html>"))])),
    ).toEqual({ ok: false, reason: "no single moov" });
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#7a5" } })
      .jpeg()
      .toBuffer();
    expect(checkVideo(jpeg)).toEqual({ ok: false, reason: "not a video container" });
    // An HEIF photo shares MP4's container but not its brands.
    expect(
      checkVideo(Buffer.concat([box("ftyp", Buffer.from("heic\0\0\0\0mif1heic", "latin1")), mp4.subarray(32)])),
    ).toEqual({ ok: false, reason: "not a video brand" });
  });

  it("refuses a real video carrying a page: HTML in a free or unknown box after ftyp, in metadata, a WebM Void element, or <script anywhere", () => {
    const ftypEnd = mp4.readUInt32BE(0);
    const withBox = (type: string, payload: string) =>
      Buffer.concat([mp4.subarray(0, ftypEnd), box(type, Buffer.from(payload, "latin1")), mp4.subarray(ftypEnd)]);
    const page =
      "<!doctype html><html><body><h1>Hi</h1>" +
      " ".repeat(900) +
      "<img src=x onerror=alert(document.cookie)></body></html>";
    expect(checkVideo(withBox("free", page))).toEqual({ ok: false, reason: "markup" });
    expect(checkVideo(withBox("skip", "<script>alert(1)</script>"))).toEqual({ ok: false, reason: "markup" });
    expect(checkVideo(withBox("zzzz", "<iframe src=//evil.example></iframe>"))).toEqual({
      ok: false,
      reason: "markup",
    });
    expect(checkVideo(withBox("free", "<SCRIPT src=//evil.example/x.js></SCRIPT>"))).toEqual({
      ok: false,
      reason: "markup",
    });
    // The same box with padding, as encoders write it, is fine.
    expect(checkVideo(withBox("free", "\0".repeat(1000)))).toMatchObject({ ok: true });
    // Inside the media data the one tag that matters is still refused: no served byte spells <script.
    const mdat = mp4.indexOf(Buffer.from("mdat")) + 4;
    refused(patched(mp4, Buffer.from("mdat"), 4 + 64, (copy, at) => copy.write("<sCrIpT>", at, "latin1")));
    expect(mdat).toBeGreaterThan(8);
    // WebM: a Void element (0xEC) holding a page, right after the EBML header.
    const segmentAt = webm.indexOf(Buffer.from([0x18, 0x53, 0x80, 0x67]));
    const html = Buffer.from("<html><body><script>alert(1)</script></body></html>", "latin1");
    const voidElement = Buffer.concat([Buffer.from([0xec, 0x40 | (html.length >> 8), html.length & 0xff]), html]);
    const segment = webm.subarray(segmentAt);
    const sizeLength = 8;
    const segmentSize = segment.readUIntBE(4 + 2, 6);
    const grown = Buffer.from(segment);
    grown.writeUIntBE(segmentSize + voidElement.length, 4 + 2, 6);
    const withVoid = Buffer.concat([
      webm.subarray(0, segmentAt),
      grown.subarray(0, 4 + sizeLength),
      voidElement,
      grown.subarray(4 + sizeLength),
    ]);
    expect(checkVideo(withVoid)).toEqual({ ok: false, reason: "markup" });
  });

  it("refuses a duration of zero or longer than ten minutes", () => {
    expect(checkVideo(mp4Lasting(540))).toMatchObject({ ok: true, seconds: 540 });
    expect(checkVideo(mp4Lasting(0))).toEqual({ ok: false, reason: "no duration" });
    expect(checkVideo(mp4Lasting(601))).toMatchObject({ ok: false });
    expect(checkVideo(mp4Lasting(4_000_000))).toMatchObject({ ok: false });
    expect(checkVideo(webmLasting(540))).toMatchObject({ ok: true, seconds: 540 });
    expect(checkVideo(webmLasting(0))).toEqual({ ok: false, reason: "no duration" });
    expect(checkVideo(webmLasting(3600))).toMatchObject({ ok: false });
    expect(checkVideo(webmLasting(Number.NaN))).toMatchObject({ ok: false });
  });

  it("refuses a well-formed file that carries much more than its frames: a large free box, padding inside mdat, a large Void", () => {
    const small = Buffer.alloc(1024, 0x41);
    const large = Buffer.alloc(VIDEO_MAX_UNEXPLAINED_BYTES + 1, 0x41);
    expect(checkVideo(Buffer.concat([mp4, box("free", small)])).ok).toBe(true);
    expect(checkVideo(Buffer.concat([mp4, box("free", large)]))).toEqual({ ok: false, reason: "unexplained bytes" });
    expect(checkVideo(Buffer.concat([mp4, box("abcd", large)]))).toEqual({ ok: false, reason: "unexplained bytes" });
    // Metadata in the movie box itself (udta, at the end of the moov, which grows to hold it).
    const moovAt = mp4.indexOf(Buffer.from("moov")) - 4;
    const moovEnd = moovAt + mp4.readUInt32BE(moovAt);
    const withMetadata = (payload: Buffer) => {
      const copy = Buffer.concat([mp4.subarray(0, moovEnd), box("udta", payload), mp4.subarray(moovEnd)]);
      copy.writeUInt32BE(mp4.readUInt32BE(moovAt) + 8 + payload.length, moovAt);
      return copy;
    };
    expect(checkVideo(withMetadata(small)).ok).toBe(true);
    expect(checkVideo(withMetadata(large))).toEqual({ ok: false, reason: "unexplained bytes" });
    // clip.mp4 ends with its mdat: grow it with bytes no sample points to.
    const mdatAt = mp4.lastIndexOf(Buffer.from("mdat")) - 4;
    const grown = Buffer.concat([mp4, large]);
    grown.writeUInt32BE(mp4.readUInt32BE(mdatAt) + large.length, mdatAt);
    expect(checkVideo(grown)).toEqual({ ok: false, reason: "unexplained bytes" });

    // In WebM: a Void element (0xEC, with an 8-byte size) at the end of the Segment, whose 8-byte size grows to cover it.
    const withVoid = (payload: Buffer) => {
      const head = Buffer.from([0xec, 0x01, 0, 0, 0, 0, 0, 0, 0]);
      head.writeUIntBE(payload.length, 3, 6);
      const copy = Buffer.concat([webm, head, payload]);
      const sizeAt = webm.indexOf(Buffer.from([0x18, 0x53, 0x80, 0x67])) + 4;
      expect(copy[sizeAt]).toBe(0x01);
      copy.writeUIntBE(copy.readUIntBE(sizeAt + 2, 6) + head.length + payload.length, sizeAt + 2, 6);
      return copy;
    };
    expect(checkVideo(withVoid(small)).ok).toBe(true);
    expect(checkVideo(withVoid(large))).toEqual({ ok: false, reason: "unexplained bytes" });
    // And inside a Cluster, before its first frame (the Cluster's 2-byte size rewritten as an 8-byte one).
    const cluster = webm.indexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75]));
    expect(webm[cluster + 4]! & 0xc0).toBe(0x40);
    const firstBlock = webm.indexOf(Buffer.from([0xa3]), cluster + 6);
    const head = Buffer.from([0xec, 0x01, 0, 0, 0, 0, 0, 0, 0]);
    head.writeUIntBE(large.length, 3, 6);
    const clusterHead = Buffer.from([0x1f, 0x43, 0xb6, 0x75, 0x01, 0, 0, 0, 0, 0, 0, 0]);
    clusterHead.writeUIntBE((webm.readUInt16BE(cluster + 4) & 0x3fff) + head.length + large.length, 6, 6);
    const stuffed = Buffer.concat([
      webm.subarray(0, cluster),
      clusterHead,
      webm.subarray(cluster + 6, firstBlock),
      head,
      large,
      webm.subarray(firstBlock),
    ]);
    const segmentSize = webm.indexOf(Buffer.from([0x18, 0x53, 0x80, 0x67])) + 6;
    stuffed.writeUIntBE(stuffed.readUIntBE(segmentSize, 6) + stuffed.length - webm.length, segmentSize, 6);
    expect(checkVideo(stuffed)).toEqual({ ok: false, reason: "unexplained bytes" });
  });

  it("answers hostile sizes at once instead of trusting them", () => {
    // A 64-bit box size far past the end, and one of zero.
    const huge = Buffer.concat([
      mp4.subarray(0, 32),
      Buffer.from([0, 0, 0, 1]),
      Buffer.from("mdat"),
      Buffer.from([0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
    ]);
    refused(huge);
    refused(Buffer.concat([mp4.subarray(0, 32), Buffer.from([0, 0, 0, 4]), Buffer.from("free")]));
    // Sample tables that claim four billion samples: of one byte each, or listed in a box too short for them.
    const stsz = mp4.indexOf(Buffer.from("stsz"));
    const countless = Buffer.from(mp4);
    countless.writeUInt32BE(1, stsz + 8);
    countless.writeUInt32BE(0xffffffff, stsz + 12);
    expect(checkVideo(countless)).toEqual({ ok: false, reason: "samples larger than their data" });
    countless.writeUInt32BE(0, stsz + 8);
    expect(checkVideo(countless)).toEqual({ ok: false, reason: "track does not parse" });
    // The same in a fragment's run (trun), with and without an entry per sample.
    const fragmented = fixture("fragmented.mp4");
    const trun = fragmented.indexOf(Buffer.from("trun"));
    const endless = Buffer.from(fragmented);
    endless.writeUInt32BE(0xffffffff, trun + 8);
    expect(checkVideo(endless)).toEqual({ ok: false, reason: "fragment does not parse" });
    endless.writeUIntBE(0x000005, trun + 5, 3);
    expect(checkVideo(endless)).toEqual({ ok: false, reason: "samples larger than their data" });
    // Hundreds of thousands of empty boxes or elements: refused once more than any real video has were read.
    const empties = (element: number[], count: number) =>
      Buffer.concat(Array.from({ length: count }, () => Buffer.from(element)));
    expect(checkVideo(Buffer.concat([mp4, empties([0, 0, 0, 8, 0x66, 0x72, 0x65, 0x65], 300_000)]))).toEqual({
      ok: false,
      reason: "box structure",
    });
    const flood = empties([0xec, 0x80], 300_000);
    const clusterHead = Buffer.from([0x1f, 0x43, 0xb6, 0x75, 0x01, 0, 0, 0, 0, 0, 0, 0]);
    clusterHead.writeUIntBE(flood.length, 6, 6);
    const flooded = Buffer.concat([webm, clusterHead, flood]);
    const segmentSize = webm.indexOf(Buffer.from([0x18, 0x53, 0x80, 0x67])) + 6;
    flooded.writeUIntBE(flooded.readUIntBE(segmentSize, 6) + clusterHead.length + flood.length, segmentSize, 6);
    expect(checkVideo(flooded)).toEqual({ ok: false, reason: "cluster structure" });
    // An EBML element whose size runs past the end, and a WebM Cluster of unknown size.
    refused(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00]));
    const cluster = webm.indexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75]));
    const unknown = Buffer.from(webm);
    unknown[cluster + 4] = 0xff;
    refused(unknown);
  });

  it("never throws, whatever bytes of a real file are changed or cut", () => {
    const samples = [mp4, webm, fixture("fragmented.mp4")];
    fc.assert(
      fc.property(
        fc.constantFrom(...samples.keys()),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
        fc.option(fc.nat()),
        (which, changes, cut) => {
          const data = Buffer.from(samples[which]!);
          for (const [offset, value] of changes) data[offset % data.length] = value;
          const input = cut === null ? data : data.subarray(0, cut % data.length);
          const result = checkVideo(input);
          expect(typeof result.ok).toBe("boolean");
        },
      ),
      { numRuns: 300 },
    );
  });
});
