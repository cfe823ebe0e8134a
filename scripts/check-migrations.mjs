// Proves the checked-in migrations match drizzle/schema.ts: generating again into a copy must produce nothing new.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const sqlFiles = (dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .sort();

const work = mkdtempSync(join(tmpdir(), "shiftline-migrations-"));
try {
  cpSync(join(root, "migrations"), join(work, "migrations"), { recursive: true });
  // drizzle-kit prefixes `out` with "./", so it must be relative to the working directory.
  writeFileSync(
    join(work, "drizzle.config.mjs"),
    `export default ${JSON.stringify({ dialect: "sqlite", schema: join(root, "drizzle", "schema.ts"), out: "./migrations" })};\n`,
  );
  const run = spawnSync(
    process.execPath,
    [join(root, "node_modules", "drizzle-kit", "bin.cjs"), "generate", "--config", "drizzle.config.mjs"],
    { cwd: work, encoding: "utf8" },
  );
  const output = `${run.stdout}${run.stderr}`;
  // drizzle-kit exits 0 even when it fails, so success is read from what it prints.
  if (run.status !== 0 || /\bError\b/.test(output) || !/No schema changes/.test(output)) {
    const added = sqlFiles(join(work, "migrations")).filter((name) => !sqlFiles(join(root, "migrations")).includes(name));
    const details = added.map((name) => `--- ${name}\n${readFileSync(join(work, "migrations", name), "utf8")}`).join("\n");
    process.stderr.write(
      `migrations/ does not match drizzle/schema.ts: run \`npm run db:generate\` and commit the result.\n${output}\n${details}\n`,
    );
    process.exitCode = 1;
  } else {
    process.stdout.write("migrations/ matches drizzle/schema.ts\n");
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
