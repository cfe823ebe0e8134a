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
