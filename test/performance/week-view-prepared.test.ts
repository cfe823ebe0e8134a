import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { builtEntryPage } from "@/features/scheduling/schedule-page.data";
import type { ScheduleListInput } from "@/features/scheduling/schedules.schemas";
import { weekViewPage } from "@/features/scheduling/week-view.data";

// The week view's commonest read is prepared once per isolate (scheduling/week-view.data): it must send exactly what
// the statement schedule-page builds per request sends (the schedule listing tests exercise its answers).

const db = createDatabase(env.DB);
const organizationId = "0193a5a0-7c1e-7b2a-9d4e-000000000002";
const location = { id: "0193a5a0-7c1e-7b2a-9d4e-000000000003", timezone: "America/New_York" };
const week: ScheduleListInput = { startDate: "2026-03-02", endDate: "2026-03-08", limit: 500, includeDeleted: false };
const cursor = btoa(`${Date.UTC(2026, 2, 4, 14)}_0193a5a0-7c1e-7b2a-9d4e-0000000000ff`).replaceAll("=", "");

const sent = (statement: unknown) => {
  const { sql, params } = (statement as { toSQL(): { sql: string; params: unknown[] } }).toSQL();
  return { sql, params };
};

describe("the prepared week view", () => {
  it.each([
    ["the first page of the published week", week, false],
    ["the first page of the drafts", week, true],
    ["a page after a cursor (the start date no longer bounds it)", { ...week, cursor }, false],
    ["a page of drafts after a cursor, with no start date", { endDate: week.endDate, cursor, limit: 50, includeDeleted: false }, true],
    ["dates written as instants", { ...week, startDate: "2026-03-02T05:00:00Z", endDate: "2026-03-09T04:59:59Z" }, false],
  ] as [string, ScheduleListInput, boolean][])("sends the built statement: %s", (_, query, isDraft) => {
    const statement = weekViewPage(db, organizationId, location, query, isDraft);
    expect(statement).not.toBeNull();
    expect(sent(statement)).toEqual(sent(builtEntryPage(db, organizationId, location, query, isDraft)));
  });

  it("is the path of that shape only: a staff member, a role, updatedSince, deleted entries or a missing date are built", () => {
    for (const other of [
      { ...week, employeeId: "e" },
      { ...week, roleId: "r" },
      { ...week, updatedSince: "2026-03-01T00:00:00Z" },
      { ...week, includeDeleted: true },
      { ...week, startDate: undefined },
      { ...week, endDate: undefined },
      { ...week, endDate: undefined, cursor },
    ]) {
      expect(weekViewPage(db, organizationId, location, other, false), JSON.stringify(other)).toBeNull();
    }
  });

  it("refuses what the built page refuses: a cursor it did not hand out, a start after the end", () => {
    expect(() => weekViewPage(db, organizationId, location, { ...week, cursor: "bm90IG1pbmU" }, false)).toThrow(/cursor/);
    expect(() => weekViewPage(db, organizationId, location, { ...week, startDate: "2026-03-09" }, false)).toThrow(/endDate/);
  });
});
