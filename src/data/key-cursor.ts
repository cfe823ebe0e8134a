import { invalidField } from "@/problems/problem";

/** A cursor over a composite order key (e.g. a date and an id): its parts joined by `|`, base64 without padding. */
export const encodeKeyCursor = (...parts: (string | number)[]) => btoa(parts.join("|")).replaceAll("=", "");

/**
 * The parts of a key cursor (`encodeKeyCursor`), read with `pattern` (one capture a part, anchored); anything else
 * is a 400 naming `cursor`, as on every list.
 */
export function decodeKeyCursor(cursor: string, pattern: RegExp): string[] {
  let text = "";
  try {
    text = atob(cursor);
  } catch {
    // reported below
  }
  const match = pattern.exec(text);
  if (!match) throw invalidField("cursor", "not a cursor from this list's Link header");
  return match.slice(1);
}
