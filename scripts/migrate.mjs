// Applies migrations/ to every D1 database of wrangler.toml (every shard): `--local` (default) or `--remote`.
// Extra arguments go to each `wrangler d1 migrations apply` (e.g. `--persist-to <dir>`, `--config <file>`).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { unstable_readConfig } from "wrangler";

const root = join(import.meta.dirname, "..");
const args = process.argv.slice(2);
const configIndex = args.indexOf("--config");
const config = unstable_readConfig({ config: configIndex === -1 ? join(root, "wrangler.toml") : args[configIndex + 1] });
const where = args.includes("--remote") ? [] : ["--local"];

for (const { binding } of config.d1_databases) {
  process.stderr.write(`Migrating ${binding}\n`);
  execFileSync(join(root, "node_modules", ".bin", "wrangler"), ["d1", "migrations", "apply", binding, ...where, ...args], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
}
