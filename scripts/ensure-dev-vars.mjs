// Creates `.dev.vars` (gitignored) with a random TOKEN_SECRET on first start, so a fresh clone runs as is.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const path = join(import.meta.dirname, "..", ".dev.vars");
const existing = existsSync(path) ? readFileSync(path, "utf8") : "";

if (!/^TOKEN_SECRET=\S/m.test(existing)) {
  const line = `TOKEN_SECRET=${randomBytes(32).toString("base64url")}\n`;
  const separator = existing === "" || existing.endsWith("\n") ? "" : "\n";
  writeFileSync(path, `${existing}${separator}${line}`, { mode: 0o600 });
  process.stderr.write(`Wrote a random TOKEN_SECRET to ${path} (local development only).\n`);
}
