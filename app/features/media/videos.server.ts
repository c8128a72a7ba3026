// Every loop is bounded by the file's length whatever a hostile file declares (mp4box trusts a sample
// table's count: a 10 KB file made it allocate until the process died). Nothing is decoded.

export const VIDEO_MAX_SECONDS = 10 * 60;
// Padding, free boxes, Void elements and unknown metadata: a real file carries only a little.
export const VIDEO_MAX_UNEXPLAINED_BYTES = 64 * 1024;
// A ten-minute video has some tens of thousands (a WebM block per frame).
const MAX_ELEMENTS = 250_000;
// checkVideo is synchronous: one file at a time.
let elementsLeft = 0;

export type VideoCheck = { ok: true; format: "mp4" | "webm"; seconds: number } | { ok: false; reason: string };

const refuse = (reason: string): VideoCheck => ({ ok: false, reason });

function judgeDuration(format: "mp4" | "webm", seconds: number): VideoCheck {
  if (!Number.isFinite(seconds) || seconds <= 0) return refuse("no duration");
  if (seconds > VIDEO_MAX_SECONDS) return refuse(`duration ${Math.round(seconds)} s`);
  return { ok: true, format, seconds };
}

export function videoSignature(data: Buffer): "mp4" | "webm" | null {
  if (data.length >= 8 && data.subarray(4, 8).toString("latin1") === "ftyp") return "mp4";
  if (data.length >= 4 && data.readUInt32BE(0) === 0x1a45dfa3) return "webm";
  return null;
}

export function checkVideo(data: Buffer): VideoCheck {
  elementsLeft = MAX_ELEMENTS;
  const signature = videoSignature(data);
  const check =
    signature === "mp4" ? checkMp4(data) : signature === "webm" ? checkWebm(data) : refuse("not a video container");
  // Frames are opaque bytes: wherever they hide it, a file is never served with a script tag in it.
  return check.ok && spellsScriptTag(data, 0, data.length) ? refuse("markup") : check;
}

/*
 * A polyglot keeps a page where no track looks: a free, skip or unknown box, metadata, a Void
 * element. Such bytes may hold padding or text, never a tag a browser would act on. (XMP's
 * prefixed tags, such as <x:xmpmeta>, are not among these.)
 */
const HTML_TAG =
  /<(?:!doctype|\?xml-stylesheet|script|html|head|body|iframe|frame|frameset|svg|math|object|embed|img|image|a|meta|link|style|form|input|button|base|video|audio|source|template|div|span|p|h1|title)[\s/>]/i;

function holdsMarkup(data: Buffer, start: number, end: number): boolean {
  return HTML_TAG.test(data.toString("latin1", start, end)) || spellsScriptTag(data, start, end);
}

const SCRIPT = "script";
function spellsScriptTag(data: Buffer, start: number, end: number): boolean {
  for (let at = data.indexOf(0x3c, start); at !== -1 && at + SCRIPT.length < end; at = data.indexOf(0x3c, at + 1)) {
    let index = 0;
    while (index < SCRIPT.length && (data[at + 1 + index]! | 0x20) === SCRIPT.charCodeAt(index)) index++;
    if (index === SCRIPT.length) return true;
  }
  return false;
}

// HEIF and AVIF images share the container and are refused.
const MP4_BRANDS = new Set([
  "isom",
  "iso2",
  "iso3",
  "iso4",
  "iso5",
  "iso6",
  "mp41",
  "mp42",
  "avc1",
  "dash",
  "M4V ",
  "mmp4",
  "MSNV",
]);
const MP4_MEDIA_BOXES = new Set(["ftyp", "moov", "mdat", "moof", "sidx", "styp", "mfra"]);
const MOOV_MEDIA_BOXES = new Set(["mvhd", "trak", "mvex", "iods"]);

interface Mp4Box {
  type: string;
  start: number;
  dataStart: number;
  end: number;
}

function boxesIn(data: Buffer, start: number, end: number): Mp4Box[] | null {
  const boxes: Mp4Box[] = [];
  for (let offset = start; offset < end;) {
    if (--elementsLeft < 0 || end - offset < 8) return null;
    for (let at = offset + 4; at < offset + 8; at++) if (data[at]! < 0x20 || data[at]! > 0x7e) return null;
    const type = String.fromCharCode(data[offset + 4]!, data[offset + 5]!, data[offset + 6]!, data[offset + 7]!);
    let size = data.readUInt32BE(offset);
    let headerSize = 8;
    if (size === 1) {
      if (end - offset < 16) return null;
      const large = data.readBigUInt64BE(offset + 8);
      if (large > BigInt(end - offset)) return null;
      size = Number(large);
      headerSize = 16;
    } else if (size === 0) {
      // "To the end of the file": only the last top-level box may say so.
      if (end !== data.length) return null;
      size = end - offset;
    }
    if (size < headerSize || size > end - offset) return null;
    boxes.push({ type, start: offset, dataStart: offset + headerSize, end: offset + size });
    offset += size;
  }
  return boxes;
}

const childrenOf = (data: Buffer, box: Mp4Box) => boxesIn(data, box.dataStart, box.end);
const firstOf = (boxes: Mp4Box[] | null | undefined, type: string) => boxes?.find((box) => box.type === type);

function descend(data: Buffer, box: Mp4Box | undefined, ...types: string[]): Mp4Box | undefined {
  let current = box;
  for (const type of types) current = current && firstOf(childrenOf(data, current), type);
  return current;
}

function fields(
  data: Buffer,
  box: Mp4Box | undefined,
  need: number,
): { version: number; flags: number; at: number } | null {
  if (!box || box.end - box.dataStart < 4 + need) return null;
  return { version: data[box.dataStart]!, flags: data.readUIntBE(box.dataStart + 1, 3), at: box.dataStart + 4 };
}

// Version 1 has 64-bit times.
function timing(data: Buffer, box: Mp4Box | undefined): [number, number] | null {
  const full = fields(data, box, 16);
  if (!full) return null;
  if (full.version !== 1) return [data.readUInt32BE(full.at + 8), data.readUInt32BE(full.at + 12)];
  if (box!.end - full.at < 28) return null;
  return [data.readUInt32BE(full.at + 16), Number(data.readBigUInt64BE(full.at + 20))];
}

interface Mp4Track {
  video: boolean;
  timescale: number;
  samples: number;
  bytes: number;
  fragmentTicks: number;
  defaultDuration: number;
  defaultSize: number;
}

function readTrack(data: Buffer, trak: Mp4Box): [number, Mp4Track] | null {
  const tkhd = fields(data, descend(data, trak, "tkhd"), 20);
  const hdlr = fields(data, descend(data, trak, "mdia", "hdlr"), 8);
  const mdhd = timing(data, descend(data, trak, "mdia", "mdhd"));
  if (!tkhd || !hdlr || !mdhd) return null;
  const id = data.readUInt32BE(tkhd.at + (tkhd.version === 1 ? 16 : 8));
  const track: Mp4Track = {
    video: data.toString("latin1", hdlr.at + 4, hdlr.at + 8) === "vide",
    timescale: mdhd[0],
    samples: 0,
    bytes: 0,
    fragmentTicks: 0,
    defaultDuration: 0,
    defaultSize: 0,
  };
  const stsz = descend(data, trak, "mdia", "minf", "stbl", "stsz");
  const table = fields(data, stsz, 8);
  if (!table) return [id, track];
  const sampleSize = data.readUInt32BE(table.at);
  track.samples = data.readUInt32BE(table.at + 4);
  if (sampleSize !== 0) track.bytes = sampleSize * track.samples;
  else {
    // One size per sample, all inside the box: the loop is bounded by the box's length.
    if (stsz!.end - (table.at + 8) < track.samples * 4) return null;
    for (let index = 0; index < track.samples; index++) track.bytes += data.readUInt32BE(table.at + 8 + index * 4);
  }
  return [id, track];
}

function readFragment(data: Buffer, moof: Mp4Box, tracks: Map<number, Mp4Track>): boolean {
  const trafs = childrenOf(data, moof);
  if (!trafs) return false;
  for (const traf of trafs.filter((box) => box.type === "traf")) {
    const boxes = childrenOf(data, traf);
    const tfhdBox = firstOf(boxes, "tfhd");
    const tfhd = fields(data, tfhdBox, 4);
    const track = tfhd ? tracks.get(data.readUInt32BE(tfhd.at)) : undefined;
    if (!boxes || !tfhd || !track) return false;
    // Optional fields in order: base data offset (8 bytes), description index, default duration, size (4 each).
    const optional = (flag: number, offset: number, fallback: number) => {
      if (!(tfhd.flags & flag)) return fallback;
      return offset + 4 <= tfhdBox!.end ? data.readUInt32BE(offset) : Number.NaN;
    };
    const durationAt = tfhd.at + 4 + (tfhd.flags & 0x1 ? 8 : 0) + (tfhd.flags & 0x2 ? 4 : 0);
    const defaultDuration = optional(0x8, durationAt, track.defaultDuration);
    const defaultSize = optional(0x10, durationAt + (tfhd.flags & 0x8 ? 4 : 0), track.defaultSize);
    if (Number.isNaN(defaultDuration) || Number.isNaN(defaultSize)) return false;
    for (const trunBox of boxes.filter((box) => box.type === "trun")) {
      const trun = fields(data, trunBox, 4);
      if (!trun) return false;
      const count = data.readUInt32BE(trun.at);
      const first = trun.at + 4 + (trun.flags & 0x1 ? 4 : 0) + (trun.flags & 0x4 ? 4 : 0);
      // Per sample, in order: duration, size, flags, composition offset (4 bytes each, when flagged).
      const entrySize = [0x100, 0x200, 0x400, 0x800].filter((flag) => trun.flags & flag).length * 4;
      track.samples += count;
      if (entrySize === 0) {
        track.bytes += count * defaultSize;
        track.fragmentTicks += count * defaultDuration;
        continue;
      }
      if (trunBox.end - first < count * entrySize) return false;
      for (let entry = first; entry < first + count * entrySize; entry += entrySize) {
        track.fragmentTicks += trun.flags & 0x100 ? data.readUInt32BE(entry) : defaultDuration;
        track.bytes += trun.flags & 0x200 ? data.readUInt32BE(entry + (trun.flags & 0x100 ? 4 : 0)) : defaultSize;
      }
    }
  }
  return true;
}

function checkMp4(data: Buffer): VideoCheck {
  const boxes = boxesIn(data, 0, data.length);
  if (!boxes) return refuse("box structure");
  const ftyp = boxes[0]!;
  if (ftyp.type !== "ftyp" || ftyp.end - ftyp.dataStart < 8) return refuse("no ftyp first");
  const brands = [data.toString("latin1", ftyp.dataStart, ftyp.dataStart + 4)];
  for (let at = ftyp.dataStart + 8; at + 4 <= ftyp.end; at += 4) brands.push(data.toString("latin1", at, at + 4));
  if (!brands.some((brand) => MP4_BRANDS.has(brand))) return refuse("not a video brand");
  const moovs = boxes.filter((box) => box.type === "moov");
  if (moovs.length !== 1) return refuse("no single moov");

  const moov = childrenOf(data, moovs[0]!);
  const movie = timing(data, firstOf(moov, "mvhd"));
  if (!moov || !movie) return refuse("moov does not parse");
  const tracks = new Map<number, Mp4Track>();
  for (const trak of moov.filter((box) => box.type === "trak")) {
    const track = readTrack(data, trak);
    if (!track) return refuse("track does not parse");
    tracks.set(...track);
  }
  const mvex = firstOf(moov, "mvex");
  const extends_ = mvex ? childrenOf(data, mvex) : [];
  if (!extends_) return refuse("moov does not parse");
  for (const trex of extends_.filter((box) => box.type === "trex")) {
    const defaults = fields(data, trex, 20);
    const track = defaults ? tracks.get(data.readUInt32BE(defaults.at)) : undefined;
    if (defaults && track)
      Object.assign(track, {
        defaultDuration: data.readUInt32BE(defaults.at + 8),
        defaultSize: data.readUInt32BE(defaults.at + 12),
      });
  }
  for (const moof of boxes.filter((box) => box.type === "moof"))
    if (!readFragment(data, moof, tracks)) return refuse("fragment does not parse");

  const video = [...tracks.values()].find((track) => track.video && track.samples > 0);
  if (!video) return refuse("no video track");
  const mdatBytes = boxes.filter((box) => box.type === "mdat").reduce((sum, box) => sum + box.end - box.dataStart, 0);
  const sampleBytes = [...tracks.values()].reduce((sum, track) => sum + track.bytes, 0);
  if (sampleBytes > mdatBytes) return refuse("samples larger than their data");
  const unexplainedBoxes = [
    ...boxes.filter((box) => !MP4_MEDIA_BOXES.has(box.type)),
    ...moov.filter((box) => !MOOV_MEDIA_BOXES.has(box.type)),
  ];
  const otherBoxes = unexplainedBoxes.reduce((sum, box) => sum + box.end - box.start, 0);
  if (otherBoxes + mdatBytes - sampleBytes > VIDEO_MAX_UNEXPLAINED_BYTES) return refuse("unexplained bytes");
  if (unexplainedBoxes.some((box) => holdsMarkup(data, box.dataStart, box.end))) return refuse("markup");

  // A fragmented file's movie header may give no duration: its video's runs then do.
  const [timescale, duration] = movie;
  const seconds =
    timescale > 0 && duration > 0
      ? duration / timescale
      : video.timescale > 0
        ? video.fragmentTicks / video.timescale
        : 0;
  return judgeDuration("mp4", seconds);
}

const EBML = 0x1a45dfa3;
const DOC_TYPE = 0x4282;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TIMESTAMP_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
const TRACKS = 0x1654ae6b;
const TRACK_ENTRY = 0xae;
const TRACK_TYPE = 0x83;
const CLUSTER = 0x1f43b675;
const SIMPLE_BLOCK = 0xa3;
const BLOCK_GROUP = 0xa0;
const CLUSTER_FIELDS = new Set([0xe7, 0xa7, 0xab]);
const VIDEO_TRACK = 1;
const SEGMENT_CHILDREN = new Set([0x114d9b74, INFO, TRACKS, CLUSTER, 0x1c53bb6b, 0x1254c367, 0x1043a770, 0x1941a469]);

interface Element {
  id: number;
  dataStart: number;
  end: number | null;
}

function readVint(
  data: Buffer,
  offset: number,
  maxLength: number,
  keepMarker: boolean,
): { value: number; length: number; allOnes: boolean } | null {
  if (offset >= data.length) return null;
  const first = data[offset]!;
  let length = 1;
  while (length <= maxLength && !(first & (0x80 >> (length - 1)))) length++;
  if (length > maxLength || offset + length > data.length) return null;
  const valueBits = keepMarker ? first : first & (0xff >> length);
  let value = valueBits;
  let allOnes = valueBits === 0xff >> length;
  for (let index = 1; index < length; index++) {
    const byte = data[offset + index]!;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value, length, allOnes };
}

function readElement(data: Buffer, offset: number, limit: number): Element | null {
  const id = readVint(data, offset, 4, true);
  if (!id) return null;
  const size = readVint(data, offset + id.length, 8, false);
  if (!size) return null;
  const dataStart = offset + id.length + size.length;
  if (size.allOnes) return { id: id.value, dataStart, end: null };
  const end = dataStart + size.value;
  return end <= limit ? { id: id.value, dataStart, end } : null;
}

function children(data: Buffer, start: number, end: number): Element[] | null {
  const found: Element[] = [];
  for (let offset = start; offset < end;) {
    const element = readElement(data, offset, end);
    if (!element || element.end === null || --elementsLeft < 0) return null;
    found.push(element);
    offset = element.end;
  }
  return found;
}

function readUint(data: Buffer, element: Element): number | null {
  const length = element.end! - element.dataStart;
  if (length < 1 || length > 6) return null;
  return data.readUIntBE(element.dataStart, length);
}

function readFloat(data: Buffer, element: Element): number | null {
  const length = element.end! - element.dataStart;
  if (length === 4) return data.readFloatBE(element.dataStart);
  if (length === 8) return data.readDoubleBE(element.dataStart);
  return null;
}

function checkWebm(data: Buffer): VideoCheck {
  const header = readElement(data, 0, data.length);
  if (!header || header.id !== EBML || header.end === null) return refuse("EBML header");
  const headerFields = children(data, header.dataStart, header.end);
  const docType = headerFields?.find((field) => field.id === DOC_TYPE);
  if (!docType || data.toString("latin1", docType.dataStart, docType.end!).replace(/\0+$/, "") !== "webm")
    return refuse("not webm");
  // A real header takes some thirty bytes: all of it counts against the unexplained bytes.
  let unexplained = header.end - header.dataStart;

  const segment = readElement(data, header.end, data.length);
  if (!segment || segment.id !== SEGMENT) return refuse("no segment");
  // A live recording leaves the Segment's size unknown: it then runs to the end of the file.
  const segmentEnd = segment.end ?? data.length;
  if (segmentEnd !== data.length) return refuse("bytes after the segment");
  const level1 = children(data, segment.dataStart, segmentEnd);
  if (!level1) return refuse("segment structure");

  let seconds: number | null = null;
  let videoTracks = 0;
  let blocks = 0;
  for (const element of level1) {
    if (!SEGMENT_CHILDREN.has(element.id)) {
      unexplained += element.end! - element.dataStart;
      if (holdsMarkup(data, element.dataStart, element.end!)) return refuse("markup");
    } else if (element.id === INFO) {
      const fields = children(data, element.dataStart, element.end!);
      if (!fields) return refuse("info structure");
      const scale = fields.find((field) => field.id === TIMESTAMP_SCALE);
      const duration = fields.find((field) => field.id === DURATION);
      const nanoseconds = scale ? readUint(data, scale) : 1_000_000;
      const ticks = duration ? readFloat(data, duration) : null;
      if (nanoseconds !== null && ticks !== null) seconds = (ticks * nanoseconds) / 1e9;
    } else if (element.id === TRACKS) {
      const entries = children(data, element.dataStart, element.end!);
      if (!entries) return refuse("tracks structure");
      for (const entry of entries.filter((child) => child.id === TRACK_ENTRY)) {
        const fields = children(data, entry.dataStart, entry.end!);
        if (!fields) return refuse("track structure");
        const type = fields.find((field) => field.id === TRACK_TYPE);
        if (type && readUint(data, type) === VIDEO_TRACK) videoTracks++;
      }
    } else if (element.id === CLUSTER) {
      for (let offset = element.dataStart; offset < element.end!;) {
        const child = readElement(data, offset, element.end!);
        if (!child || child.end === null || --elementsLeft < 0) return refuse("cluster structure");
        if (child.id === SIMPLE_BLOCK || child.id === BLOCK_GROUP) blocks++;
        else if (!CLUSTER_FIELDS.has(child.id)) {
          unexplained += child.end - child.dataStart;
          if (holdsMarkup(data, child.dataStart, child.end)) return refuse("markup");
        }
        offset = child.end;
      }
    }
  }
  if (videoTracks === 0) return refuse("no video track");
  if (blocks === 0) return refuse("no frames");
  if (unexplained > VIDEO_MAX_UNEXPLAINED_BYTES) return refuse("unexplained bytes");
  return judgeDuration("webm", seconds ?? 0);
}
