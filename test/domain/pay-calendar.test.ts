import { describe, expect, it } from "vitest";
import { calendarTimeline, organizationCalendar, workweekOverlaps } from "@/domain/pay-calendar";
import { ruleSet } from "../helpers/pay-fixtures";

/*
 * Changes of workweek and what they leave (29 CFR 778.105: a workweek may change if the change is meant to be
 * permanent). Every boundary below is worked out by hand from the calendar of June 2025: Wed 06-11, Mon 06-16,
 * Tue 06-17, Sun 06-22, Tue 06-24. The default calendar is Monday weeks from 00:00.
 */
const at = (date: string) => Date.parse(`${date}T00:00:00.000Z`);
const SUNDAY = { startsOn: 0, offset: 0 };
const MONDAY = { startsOn: 1, offset: 0 };
const TUESDAY = { startsOn: 2, offset: 0 };

describe("calendarTimeline", () => {
  it("a change takes effect at the first boundary of the old week from its date; its first week starts at its own", () => {
    // Exactly on the old boundary (Mon 06-16): at once. One day either side: Sun 06-15 waits for Mon 06-16 as well;
    // Tue 06-17 waits for the next Monday, 06-23.
    expect(calendarTimeline([{ date: "2025-06-16", calendar: SUNDAY }])).toEqual([
      { from: -Infinity, to: at("2025-06-16"), calendar: MONDAY, short: false },
      { from: at("2025-06-16"), to: at("2025-06-22"), calendar: SUNDAY, short: true },
      { from: at("2025-06-22"), to: Infinity, calendar: SUNDAY, short: false },
    ]);
    expect(calendarTimeline([{ date: "2025-06-15", calendar: SUNDAY }])[0]!.to).toBe(at("2025-06-16"));
    expect(calendarTimeline([{ date: "2025-06-17", calendar: SUNDAY }])).toEqual([
      { from: -Infinity, to: at("2025-06-23"), calendar: MONDAY, short: false },
      { from: at("2025-06-23"), to: at("2025-06-29"), calendar: SUNDAY, short: true },
      { from: at("2025-06-29"), to: Infinity, calendar: SUNDAY, short: false },
    ]);
  });

  it("a change to the calendar already in force changes nothing; one to its workday's start does", () => {
    expect(calendarTimeline([{ date: "2025-06-11", calendar: { startsOn: 1, offset: 0 } }])).toEqual([
      { from: -Infinity, to: Infinity, calendar: MONDAY, short: false },
    ]);
    // Monday weeks from 06:00: the old week ends Mon 06-16 00:00, the first new one starts that day at 06:00.
    const sixAm = { startsOn: 1, offset: 6 * 3_600_000 };
    expect(calendarTimeline([{ date: "2025-06-11", calendar: sixAm }])).toEqual([
      { from: -Infinity, to: at("2025-06-16"), calendar: MONDAY, short: false },
      { from: at("2025-06-16"), to: Date.parse("2025-06-16T06:00:00.000Z"), calendar: sixAm, short: true },
      { from: Date.parse("2025-06-16T06:00:00.000Z"), to: Infinity, calendar: sixAm, short: false },
    ]);
  });

  it("a change superseded before it took effect never does", () => {
    // Sunday weeks from Wed 06-11 would start at Mon 06-16; Tuesday weeks from Thu 06-12 replace them first.
    expect(
      calendarTimeline([
        { date: "2025-06-11", calendar: SUNDAY },
        { date: "2025-06-12", calendar: TUESDAY },
      ]),
    ).toEqual([
      { from: -Infinity, to: at("2025-06-16"), calendar: MONDAY, short: false },
      { from: at("2025-06-16"), to: at("2025-06-17"), calendar: TUESDAY, short: true },
      { from: at("2025-06-17"), to: Infinity, calendar: TUESDAY, short: false },
    ]);
    // Back to the calendar in force before the first took effect: nothing changes at all.
    expect(
      calendarTimeline([
        { date: "2025-06-11", calendar: SUNDAY },
        { date: "2025-06-12", calendar: MONDAY },
      ]),
    ).toEqual([{ from: -Infinity, to: Infinity, calendar: MONDAY, short: false }]);
  });

  it("a change made during another's short week keeps that short week and starts after it, with no overlap", () => {
    // Sunday weeks take effect Mon 06-16 (short week 06-16 – 06-22); Tuesday weeks from Wed 06-18 wait for its end,
    // Sun 06-22, and their first week starts Tue 06-24.
    const timeline = calendarTimeline([
      { date: "2025-06-11", calendar: SUNDAY },
      { date: "2025-06-18", calendar: TUESDAY },
    ]);
    expect(timeline).toEqual([
      { from: -Infinity, to: at("2025-06-16"), calendar: MONDAY, short: false },
      { from: at("2025-06-16"), to: at("2025-06-22"), calendar: SUNDAY, short: true },
      { from: at("2025-06-22"), to: at("2025-06-24"), calendar: TUESDAY, short: true },
      { from: at("2025-06-24"), to: Infinity, calendar: TUESDAY, short: false },
    ]);
    // Neither short week lies between two whole calendars: no week is counted twice (29 CFR 778.301).
    expect(workweekOverlaps(timeline)).toEqual([]);
  });
});

describe("organizationCalendar", () => {
  const sunday = (id: string, overrides = {}) =>
    ruleSet(id, "FLSA", { workweekStartsOn: "Sunday", effectiveFrom: "2025-06-11", ...overrides });
  const tuesday = (id: string, overrides = {}) =>
    ruleSet(id, "FLSA", { workweekStartsOn: "Tuesday", effectiveFrom: "2025-06-11", ...overrides });
  const SUNDAY_FROM_06_16 = [
    { from: -Infinity, to: at("2025-06-16"), calendar: MONDAY, short: false },
    { from: at("2025-06-16"), to: at("2025-06-22"), calendar: SUNDAY, short: true },
    { from: at("2025-06-22"), to: Infinity, calendar: SUNDAY, short: false },
  ];
  const TUESDAY_FROM_06_16 = [
    { from: -Infinity, to: at("2025-06-16"), calendar: MONDAY, short: false },
    { from: at("2025-06-16"), to: at("2025-06-17"), calendar: TUESDAY, short: true },
    { from: at("2025-06-17"), to: Infinity, calendar: TUESDAY, short: false },
  ];

  it("of two sets from the same date, the later created (the greater id) decides, in whatever order they come", () => {
    expect(organizationCalendar([sunday("prs_a"), tuesday("prs_b")])).toEqual(TUESDAY_FROM_06_16);
    expect(organizationCalendar([tuesday("prs_b"), sunday("prs_a")])).toEqual(TUESDAY_FROM_06_16);
    expect(organizationCalendar([sunday("prs_b"), tuesday("prs_a")])).toEqual(SUNDAY_FROM_06_16);
    expect(organizationCalendar([tuesday("prs_a"), sunday("prs_b")])).toEqual(SUNDAY_FROM_06_16);
  });

  it("takes the sets in date order, and a location's set never moves the boundaries", () => {
    // Tuesday weeks from 06-12 supersede Sunday weeks from 06-11 before they take effect, given in either order.
    const later = tuesday("prs_a", { effectiveFrom: "2025-06-12" });
    expect(organizationCalendar([later, sunday("prs_b")])).toEqual(TUESDAY_FROM_06_16);
    expect(organizationCalendar([sunday("prs_b"), later])).toEqual(TUESDAY_FROM_06_16);
    expect(organizationCalendar([sunday("prs_a"), tuesday("prs_b", { locationId: "loc_1" })])).toEqual(SUNDAY_FROM_06_16);
  });
});
