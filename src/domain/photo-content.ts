import { imageStructureFault } from "./image-structure";

/** The image types a kiosk photo may be, and its largest size (2 MiB). */
export const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];
export const MAX_PHOTO_BYTES = 2 * 1024 * 1024;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ascii = (bytes: Uint8Array, at: number, text: string) => [...text].every((ch, i) => bytes[at + i] === ch.charCodeAt(0));
const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);

/**
 * What the bytes are, by their magic numbers (never by what the client says): JPEG (FF D8 FF), PNG (its 8-byte
 * signature), WebP (RIFF, a 4-byte size, WEBP). Null for anything else.
 */
export function sniffImage(bytes: Uint8Array): PhotoType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, PNG)) return "image/png";
  if (bytes.length >= 12 && ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP")) return "image/webp";
  return null;
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
const mediaType = (header: string | null | undefined) => (header ?? "").split(";")[0]!.trim().toLowerCase();

export type PhotoVerdict =
  | { ok: true; contentType: PhotoType }
  | { ok: false; reason: "too_large" | "empty" | "unsupported_type" | "not_an_image" | "type_mismatch"; message: string };

/**
 * Whether an upload is a photo to keep: at most MAX_PHOTO_BYTES, declared as one of PHOTO_TYPES, and its content that
 * very type (a PNG sent as image/jpeg, or text sent as an image, is refused), whole by its structure from start to
 * end (image-structure: a JPEG header followed by HTML is refused).
 */
export function judgePhoto(bytes: Uint8Array, declared: string | null | undefined): PhotoVerdict {
  if (bytes.byteLength > MAX_PHOTO_BYTES) return { ok: false, reason: "too_large", message: `over ${MAX_PHOTO_BYTES} bytes` };
  const type = mediaType(declared);
  if (!(PHOTO_TYPES as readonly string[]).includes(type)) {
    return { ok: false, reason: "unsupported_type", message: `Content-Type must be one of ${PHOTO_TYPES.join(", ")}` };
  }
  if (bytes.byteLength === 0) return { ok: false, reason: "empty", message: "the body is empty" };
  const sniffed = sniffImage(bytes);
  if (!sniffed) return { ok: false, reason: "not_an_image", message: "the content is not a JPEG, PNG or WebP image" };
  if (sniffed !== type) return { ok: false, reason: "type_mismatch", message: `the content is ${sniffed}, not ${type}` };
  const fault = imageStructureFault(bytes, sniffed);
  if (fault) return { ok: false, reason: "not_an_image", message: `the content is not a whole ${sniffed} image: ${fault}` };
  return { ok: true, contentType: sniffed };
}
