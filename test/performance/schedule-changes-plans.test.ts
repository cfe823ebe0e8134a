import { scheduleEntries } from "@db/schema";
import { and, eq, type SQL, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { recordingPublishedAdditions } from "@/data/fair-workweek/published-additions.data";
import { premiumChangesStatement } from "@/data/fair-workweek/schedule-changes.data";
import { payInputsFingerprint } from "@/data/pay/pay-inputs.data";
import { rulePack } from "@/domain/fair-workweek/packs";
import { changeRulesOf } from "@/domain/fair-workweek/schedule-change";
import { scheduleCostStatements } from "@/features/schedule-cost/schedule-cost.data";
import { entryGuards, needsRestConsent } from "@/features/scheduling/schedules.guards";
import { tenantDb } from "../helpers/shards";

/*
 * Issue 33's bench: which index each read of the Fair Workweek publish path and of schedule_changes goes through
 * (EXPLAIN QUERY PLAN), so that an index no query uses is noticed and the rest-consent guard reads no more than the
 * worker's entries next to the published one.
 */

const dialect = new SQLiteAsyncDialect();
const bind = (params: unknown[]) => params.map((p) => (p instanceof Date ? p.getTime() : p));

async function planOf(query: { sql: string; params: unknown[] }): Promise<string[]> {
  const plan = await tenantDb()
    .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
    .bind(...bind(query.params))
    .all<{ detail: string }>();
  return plan.results.map((r) => r.detail);
}
const planOfSql = (query: SQL) => planOf(dialect.sqlToQuery(query));

const NYC = changeRulesOf(rulePack("NYC_FAST_FOOD", "2026-11-27")!);

describe("EXPLAIN QUERY PLAN: the publish's rest-consent guard and the change log", () => {
  it("the rest-consent guard reads ONE range of the worker's entries by start (with their end) for each row", async () => {
    const plan = await planOfSql(
      sql`SELECT id FROM schedule_entries WHERE ${and(eq(scheduleEntries.locationId, "l"), eq(scheduleEntries.isDraft, true))}
        AND ${needsRestConsent("o", NYC.restConsent!)}`,
    );
    const searches = plan.filter((line) => /^(SEARCH|SCAN) o\b/.test(line));
    expect(searches).toHaveLength(1);
    expect(searches[0]).toMatch(
      /^SEARCH o (?:EXISTS )?USING INDEX schedule_entries_employee_start \(employee_id=\? AND start_at>\? AND start_at<\?\)$/,
    );
  });

  it("a create's or PATCH's rest-consent guard reads the same one range of the worker's entries", async () => {
    const span = { organizationId: "o", employeeId: "e", entryId: "x", start: new Date("2026-12-04T11:00:00Z") };
    const plan = await planOfSql(
      sql`SELECT ${entryGuards.restConsent.sql("UTC", {
        ...span,
        end: new Date("2026-12-04T19:00:00Z"),
        rest: NYC.restConsent,
        startDate: "2026-12-04",
        consentId: null,
      })}`,
    );
    const searches = plan.filter((line) => /^(SEARCH|SCAN) o\b/.test(line));
    expect(searches).toHaveLength(1);
    expect(searches[0]).toMatch(
      /^SEARCH o (?:EXISTS )?USING INDEX schedule_entries_employee_start \(employee_id=\? AND start_at>\? AND start_at<\?\)$/,
    );
  });

  it("the publish's INSERT … SELECT reads the location's entries by its index; its summary reads its rows by key", async () => {
    const db = createDatabase(tenantDb());
    const at = new Date("2026-11-27T12:00:00Z");
    const range = { start: new Date("2026-12-04T05:00:00Z"), end: new Date("2026-12-11T05:00:00Z") };
    const { statements, summary } = recordingPublishedAdditions(db, "o", "l", [{ from: null, to: null, rules: NYC }], at, range);
    const insert = await planOf((statements[0] as unknown as { toSQL: () => { sql: string; params: unknown[] } }).toSQL());
    expect(insert.filter((line) => /schedule_entries/.test(line))).toEqual([
      expect.stringMatching(
        /^SEARCH schedule_entries USING INDEX schedule_entries_location_draft_start \(location_id=\? AND is_draft=\? AND start_at>\? AND start_at<\?\)$/,
      ),
    ]);
    const plan = await planOfSql(sql`SELECT * FROM ${summary} s`);
    expect(plan.filter((line) => /schedule_changes/.test(line))).toEqual([
      expect.stringMatching(/^SEARCH schedule_changes USING INDEX sqlite_autoindex_schedule_changes_1 \(id>\? AND id<\?\)$/),
    ]);
  });

  it("the log's reads use its one index by organization and date: the listing, the pay fingerprint, schedule cost", async () => {
    const byOrganizationAndDate =
      /USING (?:COVERING )?INDEX schedule_changes_organization_date \(organization_id=\? AND entry_date>\? AND entry_date<\?\)/;
    const listing = await planOfSql(
      sql`SELECT * FROM schedule_changes WHERE organization_id = ${"o"} AND entry_date >= ${"2026-11-01"}
        AND entry_date <= ${"2026-11-30"} ORDER BY entry_date, id LIMIT 51`,
    );
    expect(listing).toEqual([
      expect.stringMatching(
        /^SEARCH schedule_changes USING INDEX schedule_changes_organization_date \(organization_id=\? AND entry_date>\? AND entry_date<\?\)$/,
      ),
    ]);
    const fingerprint = await planOfSql(sql`SELECT ${payInputsFingerprint("o", "2026-11-01", "2026-11-30")}`);
    expect(fingerprint.filter((line) => /schedule_changes/.test(line)).join("\n")).toMatch(byOrganizationAndDate);
    const db = createDatabase(tenantDb());
    const request = { organizationId: "o", location: { id: "l", timezone: "UTC" }, startDate: "2026-11-01", endDate: "2026-11-07" };
    const cost = scheduleCostStatements(db, { ...request, includeDrafts: true, now: new Date("2026-11-01T00:00:00Z") });
    const costPlan = await planOf((cost[cost.length - 2] as unknown as { toSQL: () => { sql: string; params: unknown[] } }).toSQL());
    expect(costPlan.join("\n")).toMatch(byOrganizationAndDate);
  });

  it("…and a read by worker (pay's premiums, its staff with a premium owed) uses the same index", async () => {
    const byOrganizationAndDate =
      /USING (?:COVERING )?INDEX schedule_changes_organization_date \(organization_id=\? AND entry_date>\? AND entry_date<\?\)/;
    const db = createDatabase(tenantDb());
    const pay = await planOf(premiumChangesStatement(db, "o", "2026-11-01", "2026-11-30", ["e1", "e2"]).toSQL());
    expect(pay.join("\n")).toMatch(byOrganizationAndDate);
    const owed = await planOfSql(
      sql`SELECT id FROM staff_members AS s WHERE organization_id = ${"o"} AND s.id IN (SELECT owed.employee_id
        FROM schedule_changes AS owed WHERE owed.organization_id = ${"o"} AND owed.entry_date >= ${"2026-11-01"}
        AND owed.entry_date <= ${"2026-11-30"} AND owed.premium_rule IS NOT NULL AND owed.deleted_at IS NULL)`,
    );
    expect(owed.filter((line) => /owed/.test(line)).join("\n")).toMatch(byOrganizationAndDate);
    // One store, one index to keep on every change it records; the entries keep no change of their own.
    const indexes = await tenantDb()
      .prepare(
        "SELECT name FROM sqlite_master WHERE type IN ('index', 'view') AND sql IS NOT NULL AND (tbl_name = 'schedule_changes' OR name LIKE 'schedule_entries_added%' OR name = 'schedule_change_log') ORDER BY name",
      )
      .all<{ name: string }>();
    expect(indexes.results.map((r) => r.name)).toEqual(["schedule_changes_organization_date"]);
  });
});
