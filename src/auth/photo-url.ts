/**
 * Short-lived links to kiosk photos: GET /api/photos/{photoId}?organizationId&expires&signature, where the signature
 * is HMAC-SHA-256 (PHOTO_URL_SECRET) over the organization, the photo and the expiry. The link is the credential: it
 * names the R2 object (photos/{organizationId}/{photoId}) and serves it until `expires` (Unix seconds), no token, no
 * database read. The check is WebCrypto's verify, which compares in constant time.
 */
export const PHOTO_URL_TTL_SECONDS = 5 * 60;

const encoder = new TextEncoder();
const keys = new Map<string, CryptoKey>();
/** The HMAC key of a secret, cached once imported (never a promise one request leaves to another: appFor, src/app.ts). */
const keyOf = async (secret: string) => {
  const cached = keys.get(secret);
  if (cached) return cached;
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  keys.set(secret, key);
  return key;
};

const message = (p: { organizationId: string; photoId: string; expires: number }) =>
  encoder.encode(`photo\n${p.organizationId}\n${p.photoId}\n${p.expires}`);

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return null;
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export interface PhotoLink {
  organizationId: string;
  photoId: string;
  /** Unix seconds. */
  expires: number;
}

export async function photoSignature(secret: string, link: PhotoLink): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.sign("HMAC", await keyOf(secret), message(link))));
}

/** The path and query of a link to the photo that works until `now` + PHOTO_URL_TTL_SECONDS. */
export async function signedPhotoPath(secret: string, photo: { organizationId: string; id: string }, now: Date) {
  const link = {
    organizationId: photo.organizationId,
    photoId: photo.id,
    expires: Math.floor(now.getTime() / 1000) + PHOTO_URL_TTL_SECONDS,
  };
  const query = new URLSearchParams({
    organizationId: link.organizationId,
    expires: String(link.expires),
    signature: await photoSignature(secret, link),
  });
  return { path: `/api/photos/${encodeURIComponent(photo.id)}?${query}`, expiresAt: new Date(link.expires * 1000) };
}

/** Whether the signature is the service's for this link (whatever the time: expiry is checked apart). */
export async function signatureValid(secret: string, link: PhotoLink, signature: string): Promise<boolean> {
  const bytes = fromBase64Url(signature);
  if (!bytes) return false;
  return crypto.subtle.verify("HMAC", await keyOf(secret), bytes, message(link));
}
