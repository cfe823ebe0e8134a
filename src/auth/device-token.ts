/**
 * Device credentials. A device token is `sld_<organization id>.<32 random bytes, base64url>`: the prefix makes a
 * leaked one recognisable (secret scanners, logs), the organization routes it to its shard without a directory of
 * tokens. Only its SHA-256 is stored and looked up. Comparing hashes through the unique index is constant-time
 * enough here: the secret has 256 bits of entropy, so what a timing difference could reveal is a prefix of a hash
 * of it, which does not help find a token whose hash has that prefix.
 */
export const DEVICE_TOKEN_PREFIX = "sld_";

/** The enrollment code's alphabet: no 0/O, 1/I/L, so a code read off a screen and typed in is typed right. */
export const ENROLLMENT_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const ENROLLMENT_CODE_LENGTH = 8;
export const ENROLLMENT_TTL_MS = 10 * 60 * 1000;

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function newDeviceToken(organizationId: string): string {
  return `${DEVICE_TOKEN_PREFIX}${organizationId}.${base64url(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/** The organization a device token names, or null for a string that is no device token. */
export function organizationOfDeviceToken(token: string): string | null {
  const match = /^sld_([0-9A-Za-z-]{1,64})\.[A-Za-z0-9_-]{43}$/.exec(token);
  return match ? match[1]! : null;
}

export const isDeviceToken = (token: string) => token.startsWith(DEVICE_TOKEN_PREFIX);

/** 8 characters of the alphabet, uniformly: random bytes past the largest multiple of its size are drawn again. */
export function newEnrollmentCode(): string {
  const size = ENROLLMENT_ALPHABET.length;
  const limit = 256 - (256 % size);
  let code = "";
  while (code.length < ENROLLMENT_CODE_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
      if (byte < limit && code.length < ENROLLMENT_CODE_LENGTH) code += ENROLLMENT_ALPHABET[byte % size];
    }
  }
  return code;
}

/** What a person types: case and separators do not matter. */
export const normalizeEnrollmentCode = (input: string) => input.toUpperCase().replace(/[\s-]/g, "");
