import { describe, expect, it } from "vitest";
import {
  type Holiday,
  holidayOverrideProblems,
  holidaysWithOverrides,
  NO_OVERRIDES,
  PAID_HOLIDAY_TYPES,
  paidHolidayDates,
} from "@/domain/public-holidays";

// date-holidays' shape for a UK location in 2026 (England), one school date and a bank holiday among them.
const dataset: Holiday[] = [
  { date: "2026-12-25", name: "Christmas Day", type: "public" },
  { date: "2026-01-01", name: "New Year's Day", type: "public" },
  { date: "2026-05-04", name: "Early May bank holiday", type: "bank" },
  { date: "2026-03-15", name: "Mothering Sunday", type: "observance" },
];

describe("holidaysWithOverrides", () => {
  it("without overrides: the dataset in date order", () => {
    expect(holidaysWithOverrides(dataset, NO_OVERRIDES, 2026).map((h) => h.date)).toEqual([
      "2026-01-01",
      "2026-03-15",
      "2026-05-04",
      "2026-12-25",
    ]);
    expect(NO_OVERRIDES).toEqual({ added: [], removed: [] });
  });

  it("a removed date goes, an added date comes as public under its name, replacing the dataset's of that date", () => {
    const overrides = {
      added: [
        { date: "2026-05-04", name: "Company day" },
        { date: "2026-08-03", name: "Summer closure" },
      ],
      removed: ["2026-12-25"],
    };
    expect(holidaysWithOverrides(dataset, overrides, 2026)).toEqual([
      { date: "2026-01-01", name: "New Year's Day", type: "public" },
      { date: "2026-03-15", name: "Mothering Sunday", type: "observance" },
      { date: "2026-05-04", name: "Company day", type: "public" },
      { date: "2026-08-03", name: "Summer closure", type: "public" },
    ]);
  });

  it("an added date of another year is not in this year's list", () => {
    const overrides = { added: [{ date: "2027-01-04", name: "Bridge day" }], removed: [] };
    expect(holidaysWithOverrides([], overrides, 2026)).toEqual([]);
    expect(holidaysWithOverrides([], overrides, 2027)).toEqual([{ date: "2027-01-04", name: "Bridge day", type: "public" }]);
  });

  it("a year below 1000 is matched on its four-digit form", () => {
    const overrides = { added: [{ date: "0999-01-01", name: "Old" }], removed: [] };
    expect(holidaysWithOverrides([], overrides, 999)).toEqual([{ date: "0999-01-01", name: "Old", type: "public" }]);
  });

  it("a date both added and removed is neither (the problems refuse it on write)", () => {
    const overrides = { added: [{ date: "2026-08-03", name: "Summer closure" }], removed: ["2026-08-03"] };
    expect(holidaysWithOverrides([], overrides, 2026)).toEqual([]);
  });

  it("two holidays of one date come in name order, whichever way they arrive", () => {
    const a: Holiday = { date: "2026-04-05", name: "Easter Sunday", type: "observance" };
    const b: Holiday = { date: "2026-04-05", name: "Ostersonntag", type: "public" };
    const early: Holiday = { date: "2026-04-03", name: "Zeta", type: "public" };
    const late: Holiday = { date: "2026-04-06", name: "Alpha", type: "public" };
    const expected = [early, a, b, late];
    expect(holidaysWithOverrides([b, late, a, early], NO_OVERRIDES, 2026)).toEqual(expected);
    expect(holidaysWithOverrides([late, a, early, b], NO_OVERRIDES, 2026)).toEqual(expected);
    expect(holidaysWithOverrides([a, b, early, late], NO_OVERRIDES, 2026)).toEqual(expected);
  });
});

describe("paidHolidayDates", () => {
  it("counts public and bank holidays only", () => {
    expect([...PAID_HOLIDAY_TYPES].sort()).toEqual(["bank", "public"]);
    expect([...paidHolidayDates(dataset)].sort()).toEqual(["2026-01-01", "2026-05-04", "2026-12-25"]);
    expect(paidHolidayDates([{ date: "2026-09-01", name: "First day", type: "school" }]).size).toBe(0);
  });
});

describe("holidayOverrideProblems", () => {
  it("accepts distinct dates", () => {
    expect(holidayOverrideProblems({ added: [{ date: "2026-08-03", name: "A" }], removed: ["2026-12-25", "2026-12-26"] })).toEqual([]);
  });
  it("names a date added twice, removed twice, or both added and removed", () => {
    expect(
      holidayOverrideProblems({
        added: [
          { date: "2026-08-03", name: "A" },
          { date: "2026-08-04", name: "B" },
          { date: "2026-08-03", name: "C" },
        ],
        removed: ["2026-12-25", "2026-08-04", "2026-12-25"],
      }),
    ).toEqual([
      { path: "added.2.date", message: "is added twice" },
      { path: "removed.1", message: "is also added: a date is either added or removed" },
      { path: "removed.2", message: "is removed twice" },
    ]);
  });
});
