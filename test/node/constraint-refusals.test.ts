import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "../../src");

/** Where the database's refusal messages may be spelled: the declarations of data/write, nowhere else. */
const DECLARATIONS = ["data/write/constraint-problems.ts", "data/write/guard.ts"];

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );

describe("constraint refusals", () => {
  it("are matched only by the declarations of data/write (guards, whenDuplicate), never by a message pattern elsewhere", () => {
    const spelled = sources(SRC)
      .map((file) => relative(SRC, file))
      .filter((file) => !DECLARATIONS.includes(file))
      .filter((file) => /constraint failed|SQLITE_CONSTRAINT/i.test(readFileSync(join(SRC, file), "utf8")));
    expect(spelled).toEqual([]);
  });
});
