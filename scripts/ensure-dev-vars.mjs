// Creates `.dev.vars` (gitignored) with a random TOKEN_SECRET, WEBHOOK_SECRET_KEY, PHOTO_URL_SECRET (kiosk photo links) and OPERATOR_SECRET (the operator
// routes' bearer secret, e.g. `npm run shards:move`) on first start, so a fresh clone runs as is.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const path = join(import.meta.dirname, "..", ".dev.vars");
const existing = existsSync(path) ? readFileSync(path, "utf8") : "";

let contents = existing;
for (const [name, value] of [
  ["TOKEN_SECRET", () => randomBytes(32).toString("base64url")],
  ["WEBHOOK_SECRET_KEY", () => randomBytes(32).toString("base64")],
  ["OPERATOR_SECRET", () => randomBytes(32).toString("base64url")],
  ["PHOTO_URL_SECRET", () => randomBytes(32).toString("base64url")],
]) {
  if (new RegExp(`^${name}=\\S`, "m").test(contents)) continue;
  const separator = contents === "" || contents.endsWith("\n") ? "" : "\n";
  contents = `${contents}${separator}${name}=${value()}\n`;
  process.stderr.write(`Wrote a random ${name} to ${path} (local development only).\n`);
}
if (contents !== existing) writeFileSync(path, contents, { mode: 0o600 });
