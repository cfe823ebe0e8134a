import { shifts } from "@db/schema";
import { eq, type SQL, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { payInputsFingerprint } from "@/data/pay/pay-inputs.data";
import { scheduledPayShiftColumns } from "@/data/pay/pay-shift-columns";
import { tenantDb } from "../helpers/shards";

/*
 * Pay reads the schedule entry each shift answers inside its shift statement (no statement of its own): the
 * correlated subquery must search the staff member's entries by their index of starts, never scan the table; and the
 * close's fingerprint reads the organization's published entries by location, by the locations' index.
 */

const dialect = new SQLiteAsyncDialect();

async function planOf(query: { sql: string; params: unknown[] }): Promise<string[]> {
  const rows = await tenantDb()
    .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
    .bind(...query.params)
    .all<{ detail: string }>();
  return rows.results.map((r) => r.detail);
}

const planOfSql = (query: SQL) => planOf(dialect.sqlToQuery(query));

describe("the schedule entry a shift answers, as pay reads it", () => {
  it("is searched by the staff member's index of entry starts, once per shift", async () => {
    const db = createDatabase(tenantDb());
    const plan = await planOf(db.select(scheduledPayShiftColumns).from(shifts).where(eq(shifts.employeeId, "e")).toSQL());
    const entries = plan.filter((line) => /schedule_entries/.test(line));
    expect(entries).toEqual([
      expect.stringMatching(/^SEARCH e USING INDEX schedule_entries_employee_start \(employee_id=\? AND start_at>\? AND start_at<\?\)$/),
    ]);
    expect(plan.join("\n")).not.toMatch(/SCAN (e|schedule_entries)\b/);
  });

  it("the close's fingerprint counts the published entries by the locations' index", async () => {
    const plan = await planOfSql(sql`SELECT ${payInputsFingerprint("o", "2026-11-01", "2026-11-30")}`);
    expect(plan.filter((line) => /schedule_entries/.test(line))).toEqual([
      expect.stringMatching(
        /^SEARCH schedule_entries USING INDEX schedule_entries_location_draft_start \(location_id=\? AND is_draft=\? AND start_at>\? AND start_at<\?\)$/,
      ),
    ]);
  });
});
