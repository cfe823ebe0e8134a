import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { shardBinding, shardConfig } from "@/data/shards";
import { columnsOf } from "@/shards/pages";
import { isInternalTable, MOVED_TABLES, UNMOVED_TABLES } from "@/shards/tables";

const tablesOf = async (db: D1Database) =>
  (await db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all<{ name: string }>()).results
    .map((r) => r.name)
    .filter((name) => !isInternalTable(name));

describe("the tables a move knows", () => {
  it("classifies every table of every shard: moved with the organization, or named as not its data", async () => {
    const classified = [...MOVED_TABLES.map((t) => t.name), ...Object.keys(UNMOVED_TABLES)].sort();
    for (const shard of shardConfig(env).shards) {
      expect(await tablesOf(shardBinding(env, shard)), `${shard}: a table without a classification in src/shards/tables.ts`).toEqual(
        classified,
      );
    }
  });

  it("copies parents before children: every foreign key of a moved table points to a table moved earlier", async () => {
    const order = MOVED_TABLES.map((t) => t.name);
    for (const [i, table] of MOVED_TABLES.entries()) {
      const { results } = await env.DB.prepare(`SELECT "table" AS parent FROM pragma_foreign_key_list(?)`)
        .bind(table.name)
        .all<{ parent: string }>();
      for (const { parent } of results) expect(order.indexOf(parent), `${table.name} -> ${parent}`).toBeLessThan(i);
    }
  });

  it("walks each table by its primary key, and finds its organization by a column it has", async () => {
    for (const table of MOVED_TABLES) {
      const { results } = await env.DB.prepare("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk")
        .bind(table.name)
        .all<{ name: string }>();
      expect(
        results.map((r) => r.name),
        table.name,
      ).toEqual([...table.key]);
      const columns = await columnsOf(env.DB, table.name);
      const owner = { organization_id: "organization_id", id: "id", idempotency_scope: "scope" }[table.owner];
      expect(columns, table.name).toContain(owner);
    }
  });

  it("moves with its organization every table that has an organization_id column", async () => {
    for (const name of await tablesOf(env.DB)) {
      if (!(await columnsOf(env.DB, name)).includes("organization_id")) continue;
      if (name in UNMOVED_TABLES) continue;
      expect(MOVED_TABLES.find((t) => t.name === name)?.owner, name).toBe("organization_id");
    }
  });
});
