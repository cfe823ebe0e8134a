const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored as sent, or null: D1 would replace a lone surrogate, and NUL ends C strings. */
export function textFault(text: string): string | null {
  if (text.includes("\u0000")) return "must not contain the NUL character";
  if (LONE_SURROGATE.test(text)) return "must not contain an unpaired UTF-16 surrogate";
  return null;
}

/** Every string (key or value) of a parsed JSON document that `textFault` refuses, with its dotted path. */
export function textFaults(value: unknown, path: string[] = []): { path: string; message: string }[] {
  if (typeof value === "string") {
    const message = textFault(value);
    return message ? [{ path: path.join(".") || "(root)", message }] : [];
  }
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const keyFault = textFault(key);
    return keyFault ? [{ path: [...path, "(key)"].join("."), message: keyFault }] : textFaults(item, [...path, key]);
  });
}

/**
 * The faults of a raw query string: a parameter whose name or value is not valid percent-encoded UTF-8 (a lone
 * surrogate sent as its bytes) or holds NUL. URLSearchParams would quietly turn the first into U+FFFD.
 */
export function queryTextFaults(search: string): { path: string; message: string }[] {
  const faults: { path: string; message: string }[] = [];
  for (const pair of search.replace(/^\?/, "").split("&")) {
    if (!pair) continue;
    const [rawName = "", rawValue = ""] = pair.split("=", 2);
    const decode = (part: string) => {
      try {
        return decodeURIComponent(part.replaceAll("+", " "));
      } catch {
        return null;
      }
    };
    const name = decode(rawName);
    const value = decode(rawValue);
    const path = name ?? "(query)";
    if (name === null || value === null) faults.push({ path, message: "must be valid percent-encoded UTF-8" });
    else {
      const message = textFault(name) ?? textFault(value);
      if (message) faults.push({ path, message });
    }
  }
  return faults;
}
