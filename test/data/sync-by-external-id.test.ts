import { locations, staffMembers } from "@db/schema";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { groupByGiven, rowsPerUpsert, upsertChunks, upsertStatements } from "@/data/write/sync-by-external-id";
import { newStaffMemberRow } from "@/features/staff-members/staff-members-columns.data";
import { tenantDb } from "../helpers/shards";

const ORDER = ["id", "name", "email", "phone", "wage"];
const entry = (row: string, given: string[]) => ({ row, given });

describe("groupByGiven", () => {
  it("groups rows by the set of columns they give, whatever order each names them in", () => {
    const groups = groupByGiven([entry("a", ["name", "email"]), entry("b", ["name"]), entry("c", ["email", "name"])], ORDER);
    expect(groups).toEqual([
      { given: ["name", "email"], rows: ["a", "c"] },
      { given: ["name"], rows: ["b"] },
    ]);
  });

  it("lists a group's columns in table order, each once", () => {
    const [group] = groupByGiven([entry("a", ["wage", "name", "wage", "phone"])], ORDER);
    expect(group!.given).toEqual(["name", "phone", "wage"]);
  });

  it("keeps every row exactly once, in payload order within its group", () => {
    const entries = Array.from({ length: 30 }, (_, i) => entry(`r${i}`, i % 3 === 0 ? ["name"] : ["name", "wage"]));
    const groups = groupByGiven(entries, ORDER);
    expect(groups.map((g) => g.rows.length)).toEqual([10, 20]);
    expect(groups[0]!.rows).toEqual(entries.filter((_, i) => i % 3 === 0).map((e) => e.row));
    expect(groups.flatMap((g) => g.rows).sort()).toEqual(entries.map((e) => e.row).sort());
  });

  it("gives no groups for no entries", () => {
    expect(groupByGiven([], ORDER)).toEqual([]);
  });
});

describe("upsertChunks", () => {
  it("slices each group to the statement size without mixing groups", () => {
    const chunks = upsertChunks(
      [
        { given: ["name"], rows: [1, 2, 3, 4, 5] },
        { given: ["name", "wage"], rows: [6] },
      ],
      2,
    );
    expect(chunks).toEqual([
      { given: ["name"], rows: [1, 2] },
      { given: ["name"], rows: [3, 4] },
      { given: ["name"], rows: [5] },
      { given: ["name", "wage"], rows: [6] },
    ]);
  });
});

describe("rowsPerUpsert", () => {
  it("fits as many whole rows as 100 bound parameters allow, one per column", () => {
    expect(rowsPerUpsert(locations)).toBe(4); // 23 columns
    expect(rowsPerUpsert(staffMembers)).toBe(4); // 22 columns: 4 × 22 = 88 ≤ 100 < 5 × 22
  });

  it("refuses a table whose row alone binds more than 100 parameters", () => {
    const wide = sqliteTable("wide", Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`c${i}`, integer(`c${i}`)])));
    expect(() => rowsPerUpsert(wide)).toThrow(RangeError);
    expect(rowsPerUpsert(sqliteTable("narrow", { id: text("id") }))).toBe(100);
  });
});

describe("upsertStatements", () => {
  it("binds at most 100 parameters in any statement, whatever mix of columns the records give", () => {
    const db = createDatabase(tenantDb());
    const now = new Date();
    const entries = Array.from({ length: 1000 }, (_, i) => ({
      row: {
        ...newStaffMemberRow("org", `id-${i}`, "role", { name: `Member ${i}`, email: i % 2 ? `m${i}@example.com` : null }, now),
        externalId: `e-${i}`,
      },
      given: i % 2 ? (["name", "email"] as const) : (["name"] as const),
    }));
    const params = upsertStatements(db, staffMembers, entries).map((statement) => statement.toSQL().params.length);
    expect(Math.max(...params)).toBeLessThanOrEqual(100);
    expect(params.reduce((sum, n) => sum + n, 0)).toBe(1000 * 22);
    expect(params).toHaveLength(250); // 1000 rows ÷ 4 a statement
  });
});
