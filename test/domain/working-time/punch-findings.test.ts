import { describe, expect, it } from "vitest";
import type { Worker, WorkSpan } from "@/domain/working-time/checks";
import { applyWorkingTimeOverrides, workingTimePack } from "@/domain/working-time/packs";
import { clockOutWorkingTimeFindings } from "@/domain/working-time/punch-findings";

/* Issue 47: the weekly maximum and Japan's monthly overtime cap, judged when a shift closes (not only in the report). */

const pack = (id: Parameters<typeof workingTimePack>[0]) => workingTimePack(id, "2026-06-01")!;
const adult: Worker = { birthDate: new Date("1990-01-01T00:00:00Z"), optOut: null };
const MINUTE = 60_000;

/** A shift from `start` working `worked` minutes, with one break block of `breakMinutes` inside it. */
const shift = (id: string, start: string, worked: number, breakMinutes = 0): WorkSpan => ({
  id,
  kind: "SHIFT",
  start: new Date(start),
  end: new Date(Date.parse(start) + (worked + breakMinutes) * MINUTE),
  breakBlocks: breakMinutes > 0 ? [breakMinutes] : [],
  utcOffset: 0,
});

const findingsOf = (
  id: Parameters<typeof workingTimePack>[0],
  closing: WorkSpan,
  earlier: WorkSpan[],
  byDate = new Map<string, number>(),
) => clockOutWorkingTimeFindings(pack(id), closing, earlier, adult, [], byDate);

describe("weekly maximum at clock-out (WEEKLY_MAXIMUM_EXCEEDED)", () => {
  // Monday 2026-06-01 to Saturday 2026-06-06, 8 hours worked each (each with the pack's break): 48 hours.
  const sixDays = (breakMinutes: number) => [1, 2, 3, 4, 5, 6].map((d) => shift(`d${d}`, `2026-06-0${d}T08:00:00Z`, 480, breakMinutes));
  // [pack, break each day, Sunday's minutes, minutes over (null: none)]
  const cases: [Parameters<typeof workingTimePack>[0], number, number, number | null][] = [
    ["ON", 30, 0, null], // ESA s. 17(1)(b): exactly 48 hours passes
    ["ON", 30, 1, 1], // 48 h 01: one minute over
    ["FR", 20, 0, null], // Code du travail L3121-20: exactly 48
    ["FR", 20, 1, 1],
    ["FR", 20, 90, 90],
  ];
  for (const [id, breakMinutes, sunday, over] of cases)
    it(`${id}: Mon-Sat 48 h plus ${sunday} minute(s) on Sunday → ${over === null ? "nothing" : `${over} over`}`, () => {
      const days = sixDays(breakMinutes);
      // The week's last shift closes: the six earlier days and a Sunday shift of `sunday` minutes (none: Saturday's).
      const closing = sunday > 0 ? shift("sun", "2026-06-07T08:00:00Z", sunday) : days.pop()!;
      const found = findingsOf(id, closing, days).filter((f) => f.type === "WEEKLY_MAXIMUM_EXCEEDED");
      expect(found.map((f) => f.minutes)).toEqual(over === null ? [] : [over]);
    });
  it("47 h 59 passes (one minute under)", () => {
    const days = sixDays(30);
    const closing = shift("sat", "2026-06-06T08:00:00Z", 479, 30);
    days.pop();
    expect(findingsOf("ON", closing, days).filter((f) => f.type === "WEEKLY_MAXIMUM_EXCEEDED")).toEqual([]);
  });
  it("a week of the next Monday does not count the week before", () => {
    const closing = shift("mon", "2026-06-08T08:00:00Z", 480, 30);
    expect(findingsOf("ON", closing, sixDays(30)).filter((f) => f.type === "WEEKLY_MAXIMUM_EXCEEDED")).toEqual([]);
  });
  it("a location's agreed figure (ESA s. 17(2)-(3)): 50 hours allows 49", () => {
    const on50 = applyWorkingTimeOverrides(pack("ON"), { weeklyMaximumHours: 50 });
    const closing = shift("sun", "2026-06-07T08:00:00Z", 60);
    expect(clockOutWorkingTimeFindings(on50, closing, sixDays(30), adult, [], new Map())).toEqual([]);
  });
  it("DE has no weekly maximum (its 48 is an average): nothing", () => {
    const closing = shift("sun", "2026-06-07T08:00:00Z", 60);
    expect(findingsOf("DE", closing, sixDays(30)).filter((f) => f.type === "WEEKLY_MAXIMUM_EXCEEDED")).toEqual([]);
  });
});

describe("Japan's monthly overtime cap at clock-out (MONTHLY_OVERTIME_CAP_EXCEEDED, art. 36: 45 h a month)", () => {
  // Overtime per week: the larger of the hours over 8 a day and the hours over 40 a week.
  // Weeks of Monday 1 and 8 June 2026: 5 days of 11 h = 15 h overtime each. Week of 15 June: four days of 11 h and
  // one of 10 h = 14 h. June so far: 44 h. Week of 22 June: Monday to Thursday 8 h (none), the closing Friday.
  const byDate = new Map<string, number>();
  for (const d of ["01", "02", "03", "04", "05", "08", "09", "10", "11", "12", "15", "16", "17", "18"]) byDate.set(`2026-06-${d}`, 660);
  byDate.set("2026-06-19", 600);
  for (const d of ["22", "23", "24", "25"]) byDate.set(`2026-06-${d}`, 480);
  // [Friday's worked minutes, minutes over the cap (null: none)]
  const cases: [number, number | null][] = [
    [480, null], // 8 h: adds no overtime, June stays at 44 h
    [539, null], // 8 h 59: 44 h 59
    [540, null], // 9 h: exactly 45 h
    [541, 1], // 9 h 01: one minute over
    [600, 60], // 10 h: 46 h, an hour over
  ];
  for (const [worked, over] of cases)
    it(`Friday 26 June worked ${worked} minutes → ${over === null ? "nothing" : `${over} over`}`, () => {
      const closing = shift("fri", "2026-06-26T08:00:00Z", worked, 60);
      const found = findingsOf("JP", closing, [], byDate).filter((f) => f.type === "MONTHLY_OVERTIME_CAP_EXCEEDED");
      expect(found.map((f) => f.minutes)).toEqual(over === null ? [] : [over]);
    });
  it("a shift adding no overtime to a month already over raises nothing more", () => {
    const over = new Map(byDate);
    over.set("2026-06-19", 720); // week of 15 June: 16 h; June 46 h before Friday
    const closing = shift("fri", "2026-06-26T08:00:00Z", 480, 60);
    expect(findingsOf("JP", closing, [], over).filter((f) => f.type === "MONTHLY_OVERTIME_CAP_EXCEEDED")).toEqual([]);
  });
  it("a week starting in July counts in July (June's overtime does not)", () => {
    const closing = shift("mon", "2026-07-06T08:00:00Z", 600, 60);
    expect(findingsOf("JP", closing, [], byDate).filter((f) => f.type === "MONTHLY_OVERTIME_CAP_EXCEEDED")).toEqual([]);
  });
  it("a special clause's figure (location override): 80 h a month allows 46", () => {
    const jp80 = applyWorkingTimeOverrides(pack("JP"), { overtimeMonthHours: 80 });
    const closing = shift("fri", "2026-06-26T08:00:00Z", 600, 60);
    expect(clockOutWorkingTimeFindings(jp80, closing, [], adult, [], byDate)).toEqual([]);
  });
  it("under an art. 36(5) special clause a clock-out still raises over 45 h (the report counts the six months allowed)", () => {
    const clause = applyWorkingTimeOverrides(pack("JP"), { overtimeSpecialClause: true });
    const closing = shift("fri", "2026-06-26T08:00:00Z", 600, 60);
    expect(clockOutWorkingTimeFindings(clause, closing, [], adult, [], byDate).map((f) => [f.type, f.minutes])).toEqual([
      ["MONTHLY_OVERTIME_CAP_EXCEEDED", 60],
    ]);
  });
});
