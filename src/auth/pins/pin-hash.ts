/**
 * PIN hashing: PBKDF2-SHA-256 through WebCrypto with a 16-byte random salt per PIN. 100,000 iterations is the most
 * Workers allows; measured in workerd at about 20-25 ms of CPU per derivation, so a kiosk punch pays one such
 * derivation, well inside a paid Worker's CPU budget. Fewer would buy little: the lockout (five tries per 15
 * minutes) is what protects a PIN online, and the hash only slows an offline search of a leaked row (a 4-digit
 * PIN's 10,000 candidates cost about 4 CPU-minutes, an 8-digit one's about a month). The iterations are stored
 * with each hash, so they can be raised later (a PIN is re-hashed when it is next set).
 */
export const PIN_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function derive(pin: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(pin), "PBKDF2", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, HASH_BITS));
}

export interface StoredPin {
  hash: string;
  salt: string;
  iterations: number;
}

export async function hashPin(pin: string, iterations = PIN_ITERATIONS): Promise<StoredPin> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  return { hash: toBase64(await derive(pin, salt, iterations)), salt: toBase64(salt), iterations };
}

/** Every byte compared, whatever differs first. */
function equalInConstantTime(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/** A stand-in hashed when there is no PIN to check, so that an unknown member costs what a wrong PIN costs. */
const NO_PIN: StoredPin = {
  hash: toBase64(new Uint8Array(HASH_BITS / 8)),
  salt: toBase64(new Uint8Array(SALT_BYTES)),
  iterations: PIN_ITERATIONS,
};

/** Whether `pin` is the stored one; with none stored it derives all the same and answers false. */
export async function pinMatches(pin: string, stored: StoredPin | null): Promise<boolean> {
  const against = stored ?? NO_PIN;
  const derived = await derive(pin, fromBase64(against.salt), against.iterations);
  return equalInConstantTime(derived, fromBase64(against.hash)) && stored !== null;
}
