import { describe, expect, it } from "vitest";
import { imageStructureFault, jpegFault, pngFault, webpFault } from "@/domain/image-structure";
import * as images from "../helpers/images";

const text = (value: string) => new TextEncoder().encode(value);
const join = (...parts: (Uint8Array | number[])[]) => new Uint8Array(parts.flatMap((part) => [...part]));
/** `image` with `count` bytes from `at` replaced by `replacement`. */
const splice = (image: Uint8Array, at: number, count: number, ...replacement: number[]) =>
  join(image.subarray(0, at), replacement, image.subarray(at + count));
const HTML = text("<html><script>alert(1)</script></html>");
const { JPEG, PNG, WEBP_LOSSY, WEBP_LOSSLESS } = images;

describe("whole images pass", () => {
  it.each([
    ["baseline JPEG", images.JPEG, "image/jpeg"],
    ["progressive JPEG (several scans, tables between them)", images.PROGRESSIVE_JPEG, "image/jpeg"],
    ["JPEG padded with comments to 2 MiB", images.jpegOfSize(2 * 1024 * 1024), "image/jpeg"],
    ["truecolour PNG", images.PNG, "image/png"],
    ["palette PNG (PLTE before IDAT)", images.PALETTE_PNG, "image/png"],
    ["lossy WebP (VP8)", images.WEBP_LOSSY, "image/webp"],
    ["lossless WebP (VP8L)", images.WEBP_LOSSLESS, "image/webp"],
    ["extended WebP (VP8X, ALPH, VP8)", images.WEBP_ALPHA, "image/webp"],
  ] as const)("%s", (_, bytes, type) => {
    expect(imageStructureFault(bytes, type)).toBeNull();
  });
});

describe("JPEG: SOI, segments, a frame, scans, EOI and nothing after", () => {
  const eoi = JPEG.length - 2;
  it.each([
    ["a JPEG header then HTML", join([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], text("JFIF"), [0], HTML), /runs past the end|not a marker/],
    ["a whole JPEG then HTML", join(JPEG, HTML), /bytes follow its end of image/],
    ["one byte after EOI", join(JPEG, [0]), /1 bytes follow/],
    ["no EOI", JPEG.subarray(0, eoi), /ends inside its image data/],
    ["EOI's FF alone", JPEG.subarray(0, eoi + 1), /ends inside its image data/],
    ["cut inside a table", JPEG.subarray(0, 40), /runs past the end/],
    ["no SOI", JPEG.subarray(2), /start of image/],
    ["SOI then EOI, no scan", join([0xff, 0xd8, 0xff, 0xd9]), /no image data/],
    ["a second SOI", join([0xff, 0xd8, 0xff, 0xd8], JPEG.subarray(2)), /out of place/],
    ["a segment length of 1", join([0xff, 0xd8, 0xff, 0xfe, 0, 1], JPEG.subarray(2)), /runs past the end/],
    ["HTML where a marker belongs", join([0xff, 0xd8], HTML), /byte 2 is not a marker/],
  ])("%s is refused", (_, bytes, why) => {
    expect(jpegFault(bytes)).toMatch(why);
  });

  it("a scan before its frame header is refused", () => {
    const sof = JPEG.findIndex((b, i) => b === 0xff && JPEG[i + 1] === 0xc0);
    const sofLength = (JPEG[sof + 2]! << 8) | JPEG[sof + 3]!;
    expect(jpegFault(splice(JPEG, sof, sofLength + 2))).toMatch(/before its frame header/);
  });

  it("a frame 0 pixels wide is refused", () => {
    const sof = JPEG.findIndex((b, i) => b === 0xff && JPEG[i + 1] === 0xc0);
    // FF C0, length (2), precision (1), height (2), width (2): the width's two bytes at sof + 7.
    expect(jpegFault(splice(JPEG, sof + 7, 2, 0, 0))).toMatch(/0 pixels/);
  });
});

describe("PNG: signature, IHDR first, every chunk's CRC, IDAT, IEND last and nothing after", () => {
  const iend = PNG.length - 12;
  it.each([
    ["a whole PNG then HTML", join(PNG, HTML), /bytes follow its IEND/],
    ["no IEND", PNG.subarray(0, iend), /ends before its IEND/],
    ["the signature then HTML", join(PNG.subarray(0, 8), HTML), /not four letters|runs past the end|ends before/],
    ["a changed pixel byte (IDAT's CRC no longer matches)", splice(PNG, iend - 6, 1, PNG[iend - 6]! ^ 1), /IDAT's CRC/],
    ["a changed width (IHDR's CRC no longer matches)", splice(PNG, 19, 1, 2), /IHDR's CRC/],
    ["IEND alone after IHDR (no IDAT)", join(PNG.subarray(0, 33), PNG.subarray(iend)), /no image data/],
    ["no signature", PNG.subarray(8), /signature/],
  ])("%s is refused", (_, bytes, why) => {
    expect(pngFault(bytes)).toMatch(why);
  });
});

describe("WebP: RIFF size equal to the length, a VP8/VP8L/VP8X first chunk, chunks to the end", () => {
  it.each([
    ["a whole WebP then HTML", join(WEBP_LOSSY, HTML), /RIFF size/],
    ["a whole WebP then HTML, its RIFF size grown to match", growRiff(join(WEBP_LOSSY, HTML)), /one chunk only|runs past the end/],
    ["cut short", WEBP_LOSSY.subarray(0, 30), /RIFF size/],
    ["the header then HTML", growRiff(join(WEBP_LOSSY.subarray(0, 12), HTML)), /first chunk|runs past the end/],
    ["VP8 without its start code", splice(WEBP_LOSSY, 23, 1, 0), /start code/],
    ["VP8L without its signature", splice(WEBP_LOSSLESS, 20, 1, 0), /signature/],
  ])("%s is refused", (_, bytes, why) => {
    expect(webpFault(bytes)).toMatch(why);
  });
});

/** The same bytes with the RIFF size set to their length, as a forger would. */
function growRiff(bytes: Uint8Array) {
  const size = bytes.length - 8;
  return splice(bytes, 4, 4, size & 0xff, (size >> 8) & 0xff, (size >> 16) & 0xff, size >>> 24);
}

/* Each fault named by its own words: hand-built files, one defect each. */

/** CRC-32 as PNG defines it (ISO 3309), bit by bit: written here, not the module's table. */
function crc(bytes: number[]): number {
  let c = 0xffffffff;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
const be32 = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const le32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24];
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const pngChunk = (type: string, data: number[]) => [...be32(data.length), ...ascii(type), ...data, ...be32(crc([...ascii(type), ...data]))];
const ihdr = (width: number, height: number, depth: number, colour: number, methods: [number, number, number] = [0, 0, 0]) =>
  pngChunk("IHDR", [...be32(width), ...be32(height), depth, colour, ...methods]);
const IDAT = pngChunk("IDAT", [0x78, 0x9c, 0x63, 0, 0, 0, 1, 0, 1]);
const IEND = pngChunk("IEND", []);
const png = (...chunks: number[][]) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...chunks.flat()]);
const RGB = ihdr(1, 1, 8, 2);

describe("PNG faults, by name", () => {
  it("a hand-built truecolour PNG, interlaced or not, with an ancillary chunk, passes", () => {
    expect(pngFault(png(RGB, pngChunk("tEXt", ascii("a\0b")), IDAT, IDAT, IEND))).toBeNull();
    expect(pngFault(png(ihdr(1, 1, 16, 6, [0, 0, 1]), IDAT, IEND))).toBeNull();
    expect(pngFault(png(ihdr(0x7fffffff, 1, 1, 0), IDAT, IEND))).toBeNull();
  });
  it.each([
    ["0 pixels wide", png(ihdr(0, 1, 8, 2), IDAT, IEND), "its image is 0 pixels wide or high"],
    ["0 pixels high", png(ihdr(1, 0, 8, 2), IDAT, IEND), "its image is 0 pixels wide or high"],
    ["2^31 pixels wide", png(ihdr(0x80000000, 1, 8, 2), IDAT, IEND), "its image is too large"],
    ["2^31 pixels high", png(ihdr(1, 0x80000000, 8, 2), IDAT, IEND), "its image is too large"],
    ["truecolour at 4 bits", png(ihdr(1, 1, 4, 2), IDAT, IEND), "its colour type and bit depth do not go together"],
    ["colour type 5", png(ihdr(1, 1, 8, 5), IDAT, IEND), "its colour type and bit depth do not go together"],
    ["compression method 1", png(ihdr(1, 1, 8, 2, [1, 0, 0]), IDAT, IEND), "its header names unknown methods"],
    ["filter method 1", png(ihdr(1, 1, 8, 2, [0, 1, 0]), IDAT, IEND), "its header names unknown methods"],
    ["interlace method 2", png(ihdr(1, 1, 8, 2, [0, 0, 2]), IDAT, IEND), "its header names unknown methods"],
    ["an IHDR of 12 bytes", png(pngChunk("IHDR", RGB.slice(8, 20)), IDAT, IEND), "its IHDR is not 13 bytes"],
    ["IDAT first", png(IDAT, RGB, IEND), "its first chunk is not IHDR"],
    ["a second IHDR", png(RGB, RGB, IDAT, IEND), "it has a second IHDR"],
    [
      "PLTE after IDAT",
      png(ihdr(1, 1, 8, 3), pngChunk("PLTE", [0, 0, 0]), IDAT, pngChunk("PLTE", [0, 0, 0]), IEND),
      "its PLTE chunk is misplaced or malformed",
    ],
    ["a PLTE of 4 bytes", png(ihdr(1, 1, 8, 3), pngChunk("PLTE", [0, 0, 0, 0]), IDAT, IEND), "its PLTE chunk is misplaced or malformed"],
    ["IDAT, tEXt, IDAT", png(RGB, IDAT, pngChunk("tEXt", ascii("a\0b")), IDAT, IEND), "its IDAT chunks are not consecutive"],
    ["a palette image without PLTE", png(ihdr(1, 1, 8, 3), IDAT, IEND), "its palette image has no PLTE before its data"],
    ["an IEND with data", png(RGB, IDAT, pngChunk("IEND", [0])), "its IEND chunk is not empty"],
    ["an unknown critical chunk", png(RGB, pngChunk("ABCD", []), IDAT, IEND), "it has an unknown critical chunk ABCD"],
    ["a chunk longer than the file", png(RGB, [...be32(100), ...ascii("IDAT"), 0, 0, 0, 0], IEND), "chunk IDAT runs past the end"],
  ])("%s", (_, bytes, why) => {
    expect(pngFault(bytes)).toBe(why);
  });
});

// SOF0 of a 1 × 1 one-component frame; SOS of one component; an entropy-coded byte.
const SOF = [0xff, 0xc0, 0, 11, 8, 0, 1, 0, 1, 1, 1, 0x11, 0];
const SOS = [0xff, 0xda, 0, 8, 1, 1, 0, 0, 0x3f, 0, 0x12];
const jpeg = (...parts: number[][]) => new Uint8Array([0xff, 0xd8, ...parts.flat()]);

describe("JPEG faults, by name", () => {
  it("a hand-built JPEG passes", () => expect(jpegFault(jpeg(SOF, SOS, [0xff, 0xd9]))).toBeNull());
  it.each([
    ["segments to the last byte, no EOI", jpeg([0xff, 0xfe, 0, 4, 0x61, 0x62]), "it ends before its end of image (FF D9)"],
    ["a marker's FF as the last byte", jpeg([0xff]), "it ends before its end of image (FF D9)"],
    ["two frame headers", jpeg(SOF, SOF, SOS, [0xff, 0xd9]), "it has two frame headers"],
    [
      "a frame header of 2 components in room for 1",
      jpeg([0xff, 0xc0, 0, 11, 8, 0, 1, 0, 1, 2, 1, 0x11, 0], SOS, [0xff, 0xd9]),
      "its frame header is malformed",
    ],
    ["a frame header of 0 components", jpeg([0xff, 0xc0, 0, 8, 8, 0, 1, 0, 1, 0], SOS, [0xff, 0xd9]), "its frame header is malformed"],
    [
      "a scan header of 2 components in room for 1",
      jpeg(SOF, [0xff, 0xda, 0, 8, 2, 1, 0, 0, 0x3f, 0, 0x12], [0xff, 0xd9]),
      "a scan header is malformed",
    ],
    ["a scan header of 0 components", jpeg(SOF, [0xff, 0xda, 0, 6, 0, 0, 0x3f, 0, 0x12], [0xff, 0xd9]), "a scan header is malformed"],
  ])("%s", (_, bytes, why) => {
    expect(jpegFault(bytes)).toBe(why);
  });
});

const riffChunk = (type: string, data: number[]) => [...ascii(type), ...le32(data.length), ...data, ...(data.length % 2 ? [0] : [])];
const riff = (...chunks: number[][]) =>
  new Uint8Array([...ascii("RIFF"), ...le32(4 + chunks.flat().length), ...ascii("WEBP"), ...chunks.flat()]);
/** A VP8 key frame header of `width` × `height` (RFC 6386 9.1): frame tag, start code 9D 01 2A, 14-bit sizes. */
const vp8 = (width: number, height: number, tag = 0x10) =>
  riffChunk("VP8 ", [tag, 0, 0, 0x9d, 0x01, 0x2a, ...le32(width | (height << 16))]);
const vp8l = (version: number) => riffChunk("VP8L", [0x2f, 0, 0, 0, version << 5]);
const VP8X = riffChunk("VP8X", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

describe("WebP faults, by name", () => {
  it("hand-built simple and extended WebPs pass", () => {
    expect(webpFault(riff(vp8(1, 1)))).toBeNull();
    expect(webpFault(riff(vp8l(0)))).toBeNull();
    expect(webpFault(riff(VP8X, riffChunk("ANMF", [0, 0])))).toBeNull();
    expect(webpFault(riff(VP8X, vp8l(0)))).toBeNull();
  });
  it.each([
    ["HTML", new TextEncoder().encode("<html></html>"), "it is not a RIFF WEBP file"],
    ["a RIFF of another form", new Uint8Array([...ascii("RIFF"), ...le32(4), ...ascii("WAVE")]), "it is not a RIFF WEBP file"],
    ["an interframe", riff(vp8(1, 1, 0x11)), "its VP8 chunk is not a key frame"],
    ["a VP8 chunk of 9 bytes", riff(riffChunk("VP8 ", [0x10, 0, 0, 0x9d, 0x01, 0x2a, 1, 0, 1])), "its VP8 chunk is not a key frame"],
    ["0 pixels wide", riff(vp8(0, 1)), "its image is 0 pixels wide"],
    ["0 pixels high", riff(vp8(1, 0)), "its image is 0 pixels high"],
    ["0 pixels wide, its scale bits set", riff(vp8(0xc000, 1)), "its image is 0 pixels wide"],
    ["a VP8L of version 1", riff(vp8l(1)), "its VP8L chunk has an unknown version"],
    ["4 bytes after the last chunk", riff(vp8(1, 1), [0, 0, 0, 0]), "a chunk header runs past the end"],
    ["a VP8X of 8 bytes", riff(riffChunk("VP8X", [0, 0, 0, 0, 0, 0, 0, 0])), "its VP8X chunk is too short"],
    ["ALPH first", riff(riffChunk("ALPH", [0, 0])), 'its first chunk is "ALPH", not VP8, VP8L or VP8X'],
    ["a simple WebP with EXIF", riff(vp8(1, 1), riffChunk("EXIF", [])), "a simple WebP has one chunk only"],
    ["no chunk", riff(), "it has no chunk"],
    ["VP8X alone", riff(VP8X), "it has no image data"],
    ["VP8X with only ALPH", riff(VP8X, riffChunk("ALPH", [0, 0])), "it has no image data"],
    ["VP8X then a VP8L of version 1", riff(VP8X, vp8l(1)), "its VP8L chunk has an unknown version"],
  ])("%s", (_, bytes, why) => {
    expect(webpFault(bytes)).toBe(why);
  });
});
