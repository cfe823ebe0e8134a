/**
 * Why a string cannot be stored as sent, or null: D1 would replace a lone surrogate, and NUL ends C strings.
 * (`isWellFormed` is the engine's own check: no regular expression to compile on an isolate's first request.)
 */
export function textFault(text: string): string | null {
  if (text.includes("\u0000")) return "must not contain the NUL character";
  if (!text.isWellFormed()) return "must not contain an unpaired UTF-16 surrogate";
  return null;
}

/**
 * Every string (key or value) of a parsed JSON document that `textFault` refuses, with its dotted path. Walked with
 * a stack of its own, not recursion: a body nested thousands deep is text like any other, not a stack overflow.
 */
export function textFaults(document: unknown): { path: string; message: string }[] {
  const faults: { path: string; message: string }[] = [];
  const pending: { value: unknown; path: string }[] = [{ value: document, path: "" }];
  const at = (path: string, key: string) => (path ? `${path}.${key}` : key);
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === "string") {
      const message = textFault(value);
      if (message) faults.push({ path: path || "(root)", message });
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        const keyFault = textFault(key);
        if (keyFault) faults.push({ path: at(path, "(key)"), message: keyFault });
        else pending.push({ value: item, path: at(path, key) });
      }
    }
  }
  return faults;
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
