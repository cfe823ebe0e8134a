// Restores package-lock.json entries for workerd's macOS and Windows binaries when `npm install` ran against a
// registry that lacks them: without the entries `npm ci` refuses the lockfile as out of sync. Run after an install
// that changed workerd's version: `node scripts/lock-workerd-platforms.mjs`.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const path = join(import.meta.dirname, "..", "package-lock.json");
const lock = JSON.parse(readFileSync(path, "utf8"));
const platforms = {
  "darwin-64": { cpu: ["x64"], os: ["darwin"] },
  "darwin-arm64": { cpu: ["arm64"], os: ["darwin"] },
  "linux-64": { cpu: ["x64"], os: ["linux"] },
  "linux-arm64": { cpu: ["arm64"], os: ["linux"] },
  "windows-64": { cpu: ["x64"], os: ["win32"] },
};

const added = [];
for (const [key, node] of Object.entries(lock.packages)) {
  if (!key.endsWith("node_modules/workerd")) continue;
  const prefix = key.slice(0, -"workerd".length);
  for (const [suffix, target] of Object.entries(platforms)) {
    const name = `@cloudflare/workerd-${suffix}`;
    const version = node.optionalDependencies?.[name];
    const entry = `${prefix}${name}`;
    if (!version || lock.packages[entry]) continue;
    lock.packages[entry] = { version, ...target, dev: node.dev, license: node.license, optional: true, engines: node.engines };
    added.push(`${entry}@${version}`);
  }
}

if (added.length > 0) {
  const [root, ...rest] = Object.entries(lock.packages);
  lock.packages = Object.fromEntries([root, ...rest.sort(([a], [b]) => a.localeCompare(b, "en"))]);
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
}
process.stdout.write(added.length > 0 ? `added ${added.join(", ")}\n` : "package-lock.json already lists every workerd platform\n");
