/*
 * Whether bytes are a whole image of their type, read as a decoder reads its structure (not its pixels): JPEG's
 * segments from start of image to end of image (ITU-T T.81 Annex B), PNG's chunks with their CRCs from IHDR to IEND
 * (RFC 2083 / ISO 15948), WebP's RIFF chunks (RFC 9649). Nothing may follow the end: a JPEG header followed by
 * `<html>` is not a photo. Each answers why not, or null.
 */

const u16be = (b: Uint8Array, i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
const u32be = (b: Uint8Array, i: number) => u16be(b, i) * 0x10000 + u16be(b, i + 2);
const u32le = (b: Uint8Array, i: number) => (b[i] ?? 0) + ((b[i + 1] ?? 0) << 8) + ((b[i + 2] ?? 0) << 16) + (b[i + 3] ?? 0) * 0x1000000;
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

/** SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC): the frame headers. */
const isFrameHeader = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** The index of the marker (its FF) that ends the entropy-coded data starting at `i`, or -1 if the bytes end first. */
function endOfScan(b: Uint8Array, from: number): number {
  for (let i = from; i < b.length - 1; i++) {
    if (b[i] !== 0xff) continue;
    const next = b[i + 1]!;
    // FF 00 is a stuffed FF, FF D0–D7 a restart marker, FF FF fill before a marker: all inside the scan.
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) continue;
    return i;
  }
  return -1;
}

export function jpegFault(b: Uint8Array): string | null {
  if (b[0] !== 0xff || b[1] !== 0xd8) return "it does not start with a JPEG start of image (FF D8)";
  let frame = false;
  let scans = 0;
  let i = 2;
  for (;;) {
    if (b[i] !== 0xff) return i >= b.length ? "it ends before its end of image (FF D9)" : `byte ${i} is not a marker`;
    while (b[i] === 0xff) i++;
    const marker = b[i++];
    if (marker === undefined) return "it ends before its end of image (FF D9)";
    if (marker === 0xd9) {
      if (scans === 0) return "it has no image data (no scan)";
      return i === b.length ? null : `${b.length - i} bytes follow its end of image`;
    }
    if (marker === 0x01) continue;
    if (marker === 0x00 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) return `marker FF ${marker.toString(16)} is out of place`;
    const length = u16be(b, i);
    if (i + 2 > b.length || length < 2 || i + length > b.length) return `a segment (FF ${marker.toString(16)}) runs past the end`;
    if (isFrameHeader(marker)) {
      const components = b[i + 7] ?? 0;
      if (frame) return "it has two frame headers";
      if (length !== 8 + 3 * components || components === 0) return "its frame header is malformed";
      if (u16be(b, i + 3) === 0 || u16be(b, i + 5) === 0) return "its frame is 0 pixels wide or high";
      frame = true;
    }
    if (marker === 0xda) {
      const components = b[i + 2] ?? 0;
      if (!frame) return "a scan comes before its frame header";
      if (length !== 6 + 2 * components || components === 0) return "a scan header is malformed";
      scans++;
      i = endOfScan(b, i + length);
      if (i === -1) return "it ends inside its image data";
      continue;
    }
    i += length;
  }
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PNG_DEPTHS: Record<number, readonly number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const PNG_CRITICAL = new Set(["IHDR", "PLTE", "IDAT", "IEND"]);

let crcTable: Uint32Array | undefined;
/** CRC-32 (ISO 3309, as PNG uses it) of b[from, to). */
function crc32(b: Uint8Array, from: number, to: number): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = from; i < to; i++) c = crcTable[(c ^ b[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function ihdrFault(b: Uint8Array, at: number): string | null {
  const [depth, colour, compression, filter, interlace] = b.subarray(at + 8, at + 13);
  if (u32be(b, at) === 0 || u32be(b, at + 4) === 0) return "its image is 0 pixels wide or high";
  if (u32be(b, at) > 0x7fffffff || u32be(b, at + 4) > 0x7fffffff) return "its image is too large";
  if (!PNG_DEPTHS[colour ?? -1]?.includes(depth ?? -1)) return "its colour type and bit depth do not go together";
  if (compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) return "its header names unknown methods";
  return null;
}

export function pngFault(b: Uint8Array): string | null {
  if (!PNG_SIGNATURE.every((byte, i) => b[i] === byte)) return "it does not start with the PNG signature";
  let i = 8;
  let palette = false;
  let data: "none" | "reading" | "done" = "none";
  let colour = -1;
  for (let index = 0; ; index++) {
    if (i + 12 > b.length) return "it ends before its IEND chunk";
    const length = u32be(b, i);
    const type = ascii(b, i + 4, 4);
    const end = i + 12 + length;
    if (!/^[A-Za-z]{4}$/.test(type)) return `a chunk type (at byte ${i + 4}) is not four letters`;
    if (length > 0x7fffffff || end > b.length) return `chunk ${type} runs past the end`;
    if (crc32(b, i + 4, i + 8 + length) !== u32be(b, i + 8 + length)) return `chunk ${type}'s CRC does not match`;
    if ((index === 0) !== (type === "IHDR")) return index === 0 ? "its first chunk is not IHDR" : "it has a second IHDR";
    if (data === "reading" && type !== "IDAT") data = "done";
    if (type === "IHDR") {
      if (length !== 13) return "its IHDR is not 13 bytes";
      const fault = ihdrFault(b, i + 8);
      if (fault) return fault;
      colour = b[i + 17]!;
    } else if (type === "PLTE") {
      if (palette || data !== "none" || length === 0 || length % 3 !== 0 || length > 768) return "its PLTE chunk is misplaced or malformed";
      palette = true;
    } else if (type === "IDAT") {
      if (data === "done") return "its IDAT chunks are not consecutive";
      if (colour === 3 && !palette) return "its palette image has no PLTE before its data";
      data = "reading";
    } else if (type === "IEND") {
      if (length !== 0) return "its IEND chunk is not empty";
      if (data === "none") return "it has no image data (no IDAT)";
      return end === b.length ? null : `${b.length - end} bytes follow its IEND chunk`;
    } else if (type.charCodeAt(0) < 0x61 && !PNG_CRITICAL.has(type)) return `it has an unknown critical chunk ${type}`;
    i = end;
  }
}

/** The first chunk of a simple WebP (VP8 or VP8L): its image header. */
function bitstreamFault(b: Uint8Array, type: string, at: number, size: number): string | null {
  if (type === "VP8 ") {
    if (size < 10 || (b[at]! & 1) !== 0) return "its VP8 chunk is not a key frame";
    if (b[at + 3] !== 0x9d || b[at + 4] !== 0x01 || b[at + 5] !== 0x2a) return "its VP8 chunk lacks the start code";
    if ((((b[at + 7]! << 8) | b[at + 6]!) & 0x3fff) === 0) return "its image is 0 pixels wide";
    if ((((b[at + 9]! << 8) | b[at + 8]!) & 0x3fff) === 0) return "its image is 0 pixels high";
    return null;
  }
  if (size < 5 || b[at] !== 0x2f) return "its VP8L chunk lacks the signature (2F)";
  if (b[at + 4]! >> 5 !== 0) return "its VP8L chunk has an unknown version";
  return null;
}

export function webpFault(b: Uint8Array): string | null {
  if (ascii(b, 0, 4) !== "RIFF" || ascii(b, 8, 4) !== "WEBP") return "it is not a RIFF WEBP file";
  if (u32le(b, 4) + 8 !== b.length) return "its RIFF size is not its length";
  const chunks: string[] = [];
  let i = 12;
  while (i < b.length) {
    if (i + 8 > b.length) return "a chunk header runs past the end";
    const type = ascii(b, i, 4);
    const size = u32le(b, i + 4);
    const end = i + 8 + size + (size % 2);
    if (end > b.length) return `chunk ${type} runs past the end`;
    if (chunks.length === 0) {
      if (type === "VP8X") {
        if (size < 10) return "its VP8X chunk is too short";
      } else if (type === "VP8 " || type === "VP8L") {
        const fault = bitstreamFault(b, type, i + 8, size);
        if (fault) return fault;
      } else return `its first chunk is ${JSON.stringify(type)}, not VP8, VP8L or VP8X`;
    } else if (chunks[0] !== "VP8X") return "a simple WebP has one chunk only";
    else if (type === "VP8 " || type === "VP8L") {
      const fault = bitstreamFault(b, type, i + 8, size);
      if (fault) return fault;
    }
    chunks.push(type);
    i = end;
  }
  if (chunks.length === 0) return "it has no chunk";
  if (chunks[0] === "VP8X" && !chunks.some((type) => type === "VP8 " || type === "VP8L" || type === "ANMF")) return "it has no image data";
  return null;
}

/** Why `bytes` are not a whole image of `type`, or null when they are. */
export function imageStructureFault(bytes: Uint8Array, type: "image/jpeg" | "image/png" | "image/webp"): string | null {
  if (type === "image/jpeg") return jpegFault(bytes);
  if (type === "image/png") return pngFault(bytes);
  return webpFault(bytes);
}
