import { describe, expect, it } from "vitest";
import { workweekReport, workweekStarts } from "@/domain/fair-workweek/workweek-report";
import { organizationWorkweekStartsOn, workweekStart } from "@/domain/pay-workweek";

/* Issue 33: the Fair Workweek report — scheduled hours against the good-faith estimate, per worker and workweek. */

const monday = (date: string) => workweekStart(date, "Monday");

describe("workweekStarts", () => {
  it.each([
    ["2026-11-23", "2026-11-29", ["2026-11-23"]],
    ["2026-11-25", "2026-12-01", ["2026-11-23", "2026-11-30"]],
    ["2026-11-29", "2026-11-29", ["2026-11-23"]],
    ["2026-11-01", "2026-11-30", ["2026-10-26", "2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23", "2026-11-30"]],
  ])("[%s, %s] touches %j", (start, end, expected) => {
    expect(workweekStarts(start, end, monday)).toEqual(expected);
  });
});

describe("workweekReport", () => {
  const base = { employeeIds: ["a", "b"], weekStarts: ["2026-11-23", "2026-11-30"], weekStartOf: monday };

  const cases: {
    name: string;
    entries?: { employeeId: string; date: string; minutes: number }[];
    changes?: { employeeId: string; entryDate: string; premiumHours: number | null; premiumAmount: number | null }[];
    estimates?: { employeeId: string; effectiveFrom: string; weeklyHoursMin: number; weeklyHoursMax: number }[];
    payLines?: { employeeId: string; date: string; kind: string; hours: number; cents: number | null }[];
    expect: Record<string, unknown>;
  }[] = [
    {
      name: "no estimate: outsideEstimate null, zero figures",
      expect: {
        scheduledHours: 0,
        estimate: null,
        outsideEstimate: null,
        changes: 0,
        premiumHours: 0,
        premiumAmount: 0,
        restPremiumHours: 0,
        restPremiumAmount: 0,
        premiumsOwed: { predictability: 0, rest: 0, total: 0 },
      },
    },
    {
      name: "hours inside the estimate (bounds included)",
      entries: [
        { employeeId: "a", date: "2026-11-23", minutes: 480 },
        { employeeId: "a", date: "2026-11-29", minutes: 720 },
      ],
      estimates: [{ employeeId: "a", effectiveFrom: "2026-01-01", weeklyHoursMin: 10, weeklyHoursMax: 20 }],
      expect: {
        scheduledHours: 20,
        outsideEstimate: false,
        estimate: { weeklyHoursMin: 10, weeklyHoursMax: 20, effectiveFrom: "2026-01-01" },
      },
    },
    {
      name: "hours under the minimum are outside",
      entries: [{ employeeId: "a", date: "2026-11-24", minutes: 90 }],
      estimates: [{ employeeId: "a", effectiveFrom: "2026-01-01", weeklyHoursMin: 10, weeklyHoursMax: 20 }],
      expect: { scheduledHours: 1.5, outsideEstimate: true },
    },
    {
      name: "the estimate in effect on the week's first day, not a later one",
      entries: [{ employeeId: "a", date: "2026-11-24", minutes: 600 }],
      estimates: [
        { employeeId: "a", effectiveFrom: "2026-01-01", weeklyHoursMin: 0, weeklyHoursMax: 8 },
        { employeeId: "a", effectiveFrom: "2026-11-24", weeklyHoursMin: 10, weeklyHoursMax: 20 },
      ],
      expect: {
        scheduledHours: 10,
        outsideEstimate: true,
        estimate: { weeklyHoursMin: 0, weeklyHoursMax: 8, effectiveFrom: "2026-01-01" },
      },
    },
    {
      name: "premiums summed: hours and flat amounts, unpriced changes counted",
      changes: [
        { employeeId: "a", entryDate: "2026-11-23", premiumHours: null, premiumAmount: 15 },
        { employeeId: "a", entryDate: "2026-11-27", premiumHours: null, premiumAmount: 45.5 },
        { employeeId: "a", entryDate: "2026-11-28", premiumHours: 1.5, premiumAmount: null },
        { employeeId: "a", entryDate: "2026-11-28", premiumHours: null, premiumAmount: null },
        { employeeId: "b", entryDate: "2026-11-28", premiumHours: 9, premiumAmount: 9 },
        { employeeId: "a", entryDate: "2026-11-30", premiumHours: 9, premiumAmount: 9 },
      ],
      expect: { changes: 4, premiumHours: 1.5, premiumAmount: 60.5 },
    },
    {
      name: "premiums owed: the amounts of the week's PREDICTABILITY and REST pay lines, in cents; other kinds left out",
      payLines: [
        { employeeId: "a", date: "2026-11-23", kind: "PREDICTABILITY", hours: 0, cents: 1500 },
        { employeeId: "a", date: "2026-11-24", kind: "PREDICTABILITY", hours: 1, cents: 2033 },
        { employeeId: "a", date: "2026-11-24", kind: "REST", hours: 1, cents: 1001 },
        { employeeId: "a", date: "2026-11-29", kind: "REST", hours: 0.5, cents: 1002 },
        { employeeId: "a", date: "2026-11-25", kind: "REST", hours: 0, cents: 10000 },
        { employeeId: "a", date: "2026-11-26", kind: "REST", hours: 2, cents: null },
        { employeeId: "a", date: "2026-11-24", kind: "REGULAR", hours: 8, cents: 16000 },
        { employeeId: "a", date: "2026-11-24", kind: "MEAL_PENALTY", hours: 1, cents: 2000 },
        { employeeId: "b", date: "2026-11-24", kind: "REST", hours: 1, cents: 999 },
        { employeeId: "a", date: "2026-11-30", kind: "REST", hours: 1, cents: 999 },
      ],
      expect: {
        restPremiumHours: 3.5,
        restPremiumAmount: 120.03,
        premiumsOwed: { predictability: 35.33, rest: 120.03, total: 155.36 },
        premiumHours: 0,
        premiumAmount: 0,
      },
    },
  ];

  it.each(cases)("$name", (c) => {
    const [a] = workweekReport({
      ...base,
      entries: c.entries ?? [],
      changes: c.changes ?? [],
      estimates: c.estimates ?? [],
      payLines: c.payLines ?? [],
    });
    expect(a!.employeeId).toBe("a");
    expect(a!.weeks[0]).toMatchObject({ weekStart: "2026-11-23", weekEnd: "2026-11-29", ...c.expect });
  });

  it("lists every worker and every workweek, and leaves out dates of no listed week", () => {
    const report = workweekReport({
      ...base,
      entries: [
        { employeeId: "b", date: "2026-12-01", minutes: 60 },
        { employeeId: "b", date: "2026-12-07", minutes: 600 },
      ],
      changes: [{ employeeId: "b", entryDate: "2026-11-22", premiumHours: null, premiumAmount: 10 }],
      estimates: [],
      payLines: [
        { employeeId: "b", date: "2026-11-22", kind: "REST", hours: 0, cents: 10000 },
        { employeeId: "b", date: "2026-12-02", kind: "PREDICTABILITY", hours: 0, cents: 1500 },
      ],
    });
    expect(
      report.map((r) => [r.employeeId, r.weeks.map((w) => [w.weekStart, w.scheduledHours, w.premiumAmount, w.premiumsOwed.total])]),
    ).toEqual([
      [
        "a",
        [
          ["2026-11-23", 0, 0, 0],
          ["2026-11-30", 0, 0, 0],
        ],
      ],
      [
        "b",
        [
          ["2026-11-23", 0, 0, 0],
          ["2026-11-30", 1, 0, 15],
        ],
      ],
    ]);
  });
});

describe("organizationWorkweekStartsOn", () => {
  const sets = [
    { id: "b", locationId: null, effectiveFrom: "2026-06-01", workweekStartsOn: "Sunday" },
    { id: "a", locationId: null, effectiveFrom: "2026-01-01", workweekStartsOn: "Wednesday" },
    { id: "c", locationId: "loc", effectiveFrom: "2026-03-01", workweekStartsOn: "Friday" },
  ];
  it.each([
    ["2025-12-31", "Monday"],
    ["2026-01-01", "Wednesday"],
    ["2026-03-15", "Wednesday"],
    ["2026-06-01", "Sunday"],
  ])("on %s: %s (a location's own set does not count)", (date, expected) => {
    expect(organizationWorkweekStartsOn(sets)(date)).toBe(expected);
  });
});
