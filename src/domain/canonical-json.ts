/**
 * Canonical JSON: object keys sorted (by UTF-16 code units, as RFC 8785 sorts them), no whitespace, numbers and
 * strings as JSON.stringify writes them, undefined members left out. The same value always gives the same text,
 * so its hash identifies a payroll snapshot whatever order its fields were built in.
 */
export function canonicalJson(value: unknown): string {
  try {
    return JSON.stringify(canonicalCopy(value));
  } catch (error) {
    if (error === INDEX_KEY) return canonicalText(value);
    throw error;
  }
}

/** Thrown by canonicalCopy at a key JS objects order by number, not by insertion: such a value is written by canonicalText. */
const INDEX_KEY = new Error("an array-index-like key");
const isIndexLike = (key: string) => {
  const first = key.charCodeAt(0);
  return first >= 0x30 && first <= 0x39 && /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4_294_967_295;
};

/**
 * The value rebuilt with every object's keys inserted in sorted order, for JSON.stringify (which writes keys in
 * insertion order, natively: about twice as fast as writing the text member by member in JS). Keys like "7" are
 * ordered by number by every JS object whatever the insertion order: their value falls back to canonicalText.
 */
function canonicalCopy(value: unknown): unknown {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) throw new TypeError("canonical JSON has no non-finite numbers");
    return value;
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : canonicalCopy(item)));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    if (isIndexLike(key) || key === "__proto__") throw INDEX_KEY;
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) copy[key] = canonicalCopy(member);
  }
  return copy;
}

/** The same text written member by member (any keys). */
function canonicalText(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) throw new TypeError("canonical JSON has no non-finite numbers");
    return JSON.stringify(value);
  }
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? "null" : canonicalText(item))).join(",")}]`;
  const members = Object.keys(value)
    .sort()
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonicalText((value as Record<string, unknown>)[key])}`);
  return `{${members.join(",")}}`;
}

/** SHA-256 of a text's UTF-8 bytes as lowercase hex (Web Crypto: workerd and Node alike). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The snapshotHash of a payroll snapshot: SHA-256 hex of its canonical JSON. */
export const canonicalHash = (value: unknown): Promise<string> => sha256Hex(canonicalJson(value));

/**
 * The canonical JSON of an object around one of its members' value: the text before the value (from `{` to the
 * member's `"key":`) and after it (the following members and `}`), so that before + canonicalJson(value[key]) +
 * after is canonicalJson(value). A payroll snapshot is written this way with its employees streamed in between.
 */
export function canonicalAround(value: Record<string, unknown>, key: string): [string, string] {
  const keys = Object.keys(value)
    .filter((k) => k !== key && value[k] !== undefined)
    .concat(key)
    .sort();
  const at = keys.indexOf(key);
  const member = (k: string) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`;
  const before = keys.slice(0, at).map((k) => `${member(k)},`);
  const after = keys.slice(at + 1).map((k) => `,${member(k)}`);
  return [`{${before.join("")}${JSON.stringify(key)}:`, `${after.join("")}}`];
}
