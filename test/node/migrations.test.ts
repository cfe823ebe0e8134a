import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");

it("the checked-in migrations match drizzle/schema.ts (generating again adds no .sql file)", () => {
  // scripts/check-migrations.mjs generates into a temporary copy of migrations/ and fails on any new file.
  const run = spawnSync(process.execPath, [join(root, "scripts", "check-migrations.mjs")], { cwd: root, encoding: "utf8" });
  expect(run.stderr).toBe("");
  expect(run.stdout).toContain("migrations/ matches drizzle/schema.ts");
  expect(run.status).toBe(0);
});
