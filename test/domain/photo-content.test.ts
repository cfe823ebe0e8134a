import { describe, expect, it } from "vitest";
import { judgePhoto, MAX_PHOTO_BYTES, sniffImage } from "@/domain/photo-content";
import * as images from "../helpers/images";

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(values.flatMap((v) => (typeof v === "string" ? [...v].map((c) => c.charCodeAt(0)) : [v])));

const JPEG = bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, "JFIF");
const PNG = bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, "IHDR");
const WEBP = bytes("RIFF", 0x24, 0, 0, 0, "WEBPVP8 ");

describe("sniffImage", () => {
  it.each([
    ["JPEG (FF D8 FF)", JPEG, "image/jpeg"],
    ["PNG (89 50 4E 47 0D 0A 1A 0A)", PNG, "image/png"],
    ["WebP (RIFF....WEBP)", WEBP, "image/webp"],
    ["GIF", bytes("GIF89a", 1, 0, 1, 0), null],
    ["a RIFF that is not WebP (WAVE)", bytes("RIFF", 0x24, 0, 0, 0, "WAVEfmt "), null],
    ["a truncated PNG signature", bytes(0x89, "PNG", 0x0d, 0x0a), null],
    ["two bytes of JPEG", bytes(0xff, 0xd8), null],
    ["text", bytes("<svg xmlns='http://www.w3.org/2000/svg'/>"), null],
    ["nothing", new Uint8Array(0), null],
  ])("%s → %s", (_, content, type) => {
    expect(sniffImage(content)).toBe(type);
  });
});

describe("judgePhoto", () => {
  it.each([
    [images.JPEG, "image/jpeg", "image/jpeg"],
    [images.PNG, "image/png", "image/png"],
    [images.WEBP_LOSSY, "image/webp; charset=binary", "image/webp"],
    [images.JPEG, "IMAGE/JPEG", "image/jpeg"],
  ])("accepts content that is what it claims", (content, declared, contentType) => {
    expect(judgePhoto(content, declared)).toEqual({ ok: true, contentType });
  });

  it.each([
    ["a PNG sent as image/jpeg", PNG, "image/jpeg", "type_mismatch"],
    ["a JPEG sent as image/webp", JPEG, "image/webp", "type_mismatch"],
    ["text sent as image/png", bytes("hello"), "image/png", "not_an_image"],
    ["a GIF sent as image/gif", bytes("GIF89a"), "image/gif", "unsupported_type"],
    ["no Content-Type", JPEG, undefined, "unsupported_type"],
    ["an empty body", new Uint8Array(0), "image/jpeg", "empty"],
    [
      "a JPEG header followed by HTML",
      bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, "JFIF", 0, "<html><script>alert(1)</script>"),
      "image/jpeg",
      "not_an_image",
    ],
    ["a JPEG's first bytes alone", JPEG, "image/jpeg", "not_an_image"],
    ["a PNG signature and IHDR's start alone", PNG, "image/png", "not_an_image"],
    ["a WebP header alone", WEBP, "image/webp", "not_an_image"],
  ])("refuses %s", (_, content, declared, reason) => {
    expect(judgePhoto(content, declared)).toMatchObject({ ok: false, reason });
  });

  it("takes exactly 2 MiB and refuses a byte more", () => {
    const at = (size: number) => judgePhoto(images.jpegOfSize(size), "image/jpeg");
    expect(at(MAX_PHOTO_BYTES)).toEqual({ ok: true, contentType: "image/jpeg" });
    expect(at(MAX_PHOTO_BYTES + 1)).toMatchObject({ ok: false, reason: "too_large" });
  });
});
