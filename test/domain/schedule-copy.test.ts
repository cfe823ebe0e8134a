import { describe, expect, it } from "vitest";
import { copyAcrossDays, daysBetween, planCopies } from "@/domain/schedule-copy";
import { MAX_ENTRY_SPAN_MINUTES, MAX_SHIFT_MINUTES } from "@/domain/shift-plan";

const NY = "America/New_York";
const source = (start: string, end: string, utcOffset: number, extra: Record<string, unknown> = {}) => ({
  id: "s1",
  employeeId: "e1",
  start: new Date(start),
  end: new Date(end),
  utcOffset,
  timezone: NY,
  ...extra,
});

describe("daysBetween", () => {
  it("counts whole calendar days either way", () => {
    expect(daysBetween("2026-03-02", "2026-03-09")).toBe(7);
    expect(daysBetween("2026-03-09", "2026-03-02")).toBe(-7);
    expect(daysBetween("2026-02-28", "2026-03-01")).toBe(1);
  });
});

describe("copyAcrossDays", () => {
  it("keeps 09:00-17:00 local across the March change (EST to EDT)", () => {
    const copy = copyAcrossDays(source("2026-03-02T14:00:00Z", "2026-03-02T22:00:00Z", -300), 7);
    expect(copy.start.toISOString()).toBe("2026-03-09T13:00:00.000Z");
    expect(copy.end.toISOString()).toBe("2026-03-09T21:00:00.000Z");
    expect(copy.utcOffset).toBe(-240);
  });

  it("keeps local times across the November change (EDT to EST) and backwards in time", () => {
    const fall = copyAcrossDays(source("2026-10-26T13:00:00Z", "2026-10-26T21:00:00Z", -240), 7);
    expect(fall.start.toISOString()).toBe("2026-11-02T14:00:00.000Z");
    expect(fall.utcOffset).toBe(-300);
    const back = copyAcrossDays(source("2026-03-09T13:00:00Z", "2026-03-09T21:00:00Z", -240), -7);
    expect(back.start.toISOString()).toBe("2026-03-02T14:00:00.000Z");
  });

  it("keeps an overnight shift overnight, its end on the next local day", () => {
    const copy = copyAcrossDays(source("2026-03-07T03:00:00Z", "2026-03-07T11:00:00Z", -300), 1);
    // 22:00 Mar 6 → 06:00 Mar 7 local becomes 22:00 Mar 7 → 06:00 Mar 8, across the 02:00 gap: 7 h long.
    expect(copy.start.toISOString()).toBe("2026-03-08T03:00:00.000Z");
    expect(copy.end.toISOString()).toBe("2026-03-08T10:00:00.000Z");
  });

  it("lasts longer than it was written across offset changes, never more than MAX_ENTRY_SPAN_MINUTES", () => {
    // 24 h written across the March change, copied (as 00:00 to 00:00 local) onto the November change: 25 h.
    const written = source("2026-03-08T05:00:00Z", "2026-03-09T05:00:00Z", -300);
    expect(written.end.getTime() - written.start.getTime()).toBe(MAX_SHIFT_MINUTES * 60_000);
    const copy = copyAcrossDays(written, daysBetween("2026-03-08", "2026-11-01"));
    expect(copy.start.toISOString()).toBe("2026-11-01T04:00:00.000Z");
    expect(copy.end.toISOString()).toBe("2026-11-02T05:00:00.000Z");
    expect(copy.end.getTime() - copy.start.getTime()).toBe(25 * 3_600_000);
    expect(copy.end.getTime() - copy.start.getTime()).toBeLessThanOrEqual(MAX_ENTRY_SPAN_MINUTES * 60_000);
  });
});

describe("planCopies", () => {
  let n = 0;
  const newId = () => `c${n++}`;

  it("skips a copy overlapping an existing entry or another copy of the same staff member, not other staff's", () => {
    const a = source("2026-06-01T13:00:00Z", "2026-06-01T21:00:00Z", -240, { id: "a" });
    const b = source("2026-06-01T13:00:00Z", "2026-06-01T21:00:00Z", -240, { id: "b", employeeId: "e2" });
    const existing = [{ employeeId: "e1", start: new Date("2026-06-08T20:00:00Z"), end: new Date("2026-06-08T23:00:00Z") }];
    const plan = planCopies([a, b], 7, existing, [], newId);
    expect(plan.copies.map((c) => c.sourceId)).toEqual(["b"]);
    expect(plan.skipped).toMatchObject([{ sourceId: "a", reason: "SCHEDULE_OVERLAP" }]);
  });

  it("reports time off before an overlap", () => {
    const a = source("2026-06-01T13:00:00Z", "2026-06-01T21:00:00Z", -240, { id: "a" });
    const off = [{ employeeId: "e1", start: new Date("2026-06-08T00:00:00Z"), end: new Date("2026-06-09T00:00:00Z") }];
    const plan = planCopies([a], 7, off, off, newId);
    expect(plan.skipped).toMatchObject([{ sourceId: "a", reason: "TIME_OFF_CONFLICT" }]);
    expect(plan.copies).toEqual([]);
  });
});
