import { describe, expect, it } from "vitest";
import { computeChargedPay, computePay } from "@/domain/pay-classification";
import { payShiftFromStored } from "@/domain/pay-shift";
import {
  entryWage,
  type PlannedBreakType,
  plannedBreaks,
  projectedShifts,
  type ScheduledEntry,
  salesByDate,
  scheduleCost,
  type WorkedShift,
} from "@/domain/schedule-cost";
import { ruleSet } from "../helpers/pay-fixtures";

const MIN = 60_000;
const T0 = Date.parse("2026-06-01T08:00:00Z");
const at = (minutes: number) => new Date(T0 + minutes * MIN);

const type = (id: string, frequencyMinutes: number, durationMinutes: number, more: Partial<PlannedBreakType> = {}): PlannedBreakType => ({
  id,
  name: id,
  locationId: "loc_1",
  mandatory: false,
  frequencyMinutes,
  durationMinutes,
  paid: false,
  ...more,
});

const entry = (id: string, fromMinutes: number, minutes: number, more: Partial<ScheduledEntry> = {}): ScheduledEntry => ({
  id,
  employeeId: "emp_a",
  locationId: "loc_1",
  roleId: "role_1",
  startAt: at(fromMinutes),
  endAt: at(fromMinutes + minutes),
  utcOffset: 0,
  breakTypeIds: [],
  ...more,
});

const shift = (id: string, fromMinutes: number, minutes: number | null, more: Partial<WorkedShift> = {}): WorkedShift => ({
  id,
  employeeId: "emp_a",
  locationId: "loc_1",
  businessDate: "2026-06-01",
  startAt: at(fromMinutes),
  endAt: minutes === null ? null : at(fromMinutes + minutes),
  utcOffset: 0,
  hourlyWage: 20,
  breaks: [],
  ...more,
});

const wages = {
  rates: new Map([["emp_a", [{ id: "r1", roleId: "role_1", locationId: "loc_1", hourlyRate: 26, effectiveFrom: "2026-06-02" }]]]),
  roles: new Map([["role_1", { hourlyWage: 30 }]]),
  staff: new Map([
    ["emp_a", { hourlyWage: 15, wageType: "hourly" }],
    ["emp_s", { hourlyWage: 15, wageType: "salary" }],
  ]),
};

describe("plannedBreaks: each break taken where its type is due", () => {
  const cases: [string, number, PlannedBreakType[], [number, number][]][] = [
    ["due at start + frequency", 480, [type("lunch", 240, 30)], [[240, 270]]],
    ["moved earlier to end by the shift's end", 300, [type("lunch", 360, 30)], [[270, 300]]],
    [
      "in due order, the later one after the earlier",
      600,
      [type("b", 240, 30), type("a", 240, 15)],
      [
        [240, 270],
        [270, 285],
      ],
    ],
    ["cut at the shift's end", 20, [type("lunch", 0, 30)], [[0, 20]]],
  ];
  it.each(cases)("%s", (_, minutes, types, spans) => {
    const breaks = plannedBreaks(at(0), at(minutes), types);
    expect(breaks.map((b) => [(b.startTime.getTime() - T0) / MIN, (b.endTime!.getTime() - T0) / MIN])).toEqual(spans);
    expect(breaks.every((b) => b.automatic === false)).toBe(true);
  });
});

describe("entryWage: resolved as a clock-in on its start date", () => {
  it.each([
    ["the wage rate effective that day", "2026-06-02", "emp_a", 26],
    ["the role's wage before the rate is effective", "2026-06-01", "emp_a", 30],
    ["none for a salaried staff member", "2026-06-02", "emp_s", null],
  ] as const)("%s", (_, date, employeeId, wage) => {
    expect(entryWage(entry("e1", 0, 60, { employeeId }), date, wages)).toBe(wage);
  });
});

describe("projectedShifts: worked shifts plus the entries still to come", () => {
  const project = (now: number, shifts: WorkedShift[], entries: ScheduledEntry[], breakTypes: PlannedBreakType[] = []) =>
    projectedShifts({ now: at(now), shifts, entries, breakTypes, wages });

  it("an entry to come counts as the shift it plans, with its breaks; a mandatory type it does not plan is not deducted", () => {
    const types = [type("lunch", 240, 30), type("rest", 120, 10, { mandatory: true, paid: false })];
    const [planned] = project(-60, [], [entry("e1", 0, 480, { breakTypeIds: ["lunch"] })], types);
    expect(planned).toMatchObject({ id: "e1", hourlyWage: 30, businessDate: "2026-06-01" });
    expect(planned!.breaks.map((b) => [(b.startAt - T0) / MIN, b.automatic])).toEqual([[240, false]]);
  });

  it.each([
    ["a closed shift overlapping it stands for it", [shift("s1", 10, 300)], 0, ["s1"]],
    ["one ended without a shift counts nothing", [], 500, []],
    ["one under way without a clock-in counts whole", [], 60, ["e1"]],
    [
      "a shift of the staff member elsewhere, before it, leaves it counted",
      [shift("s1", -300, 240, { locationId: "loc_2" })],
      -30,
      ["s1", "e1"],
    ],
  ] as const)("%s", (_, shifts, now, ids) => {
    expect(project(now, [...shifts], [entry("e1", 0, 480)]).map((s) => s.id)).toEqual(ids);
  });

  it("an open shift stands for the entries it overlaps so far and closes at the later of now and their end", () => {
    const open = shift("s1", 30, null, {
      breaks: [{ startAt: T0 + 200 * MIN, endAt: null, paid: false, automatic: false, durationInSettingsMinutes: 30 }],
    });
    const [projected, ...rest] = project(210, [open], [entry("e1", 0, 480), entry("e2", 600, 60)]);
    expect(rest.map((s) => s.id)).toEqual(["e2"]);
    expect(projected!.endAt).toEqual(at(480));
    expect(projected!.breaks.map((b) => [(b.startAt - T0) / MIN, (b.endAt! - T0) / MIN])).toEqual([[200, 230]]);
    const late = project(540, [open], [entry("e1", 0, 480)]);
    expect(late[0]!.endAt).toEqual(at(540));
  });

  it("the pay engine over a planned entry equals it over the same shift worked", () => {
    const types = [type("lunch", 240, 30)];
    const planned = project(-60, [], [entry("e1", 0, 660, { breakTypeIds: ["lunch"] })], types);
    const worked = project(1000, [shift("e1", 0, 660, { hourlyWage: 30, breaks: planned[0]!.breaks })], []);
    const sets = [ruleSet("ca", "CALIFORNIA")];
    const pay = (shifts: WorkedShift[]) =>
      computePay({ startDate: "2026-06-01", endDate: "2026-06-01", shifts: shifts.map(payShiftFromStored), timeOff: [], ruleSets: sets });
    expect(pay(planned)).toEqual(pay(worked));
    // 480 × $30 + 150 min overtime at $45 = 240 + 112.5; 630 minutes worked with one meal misses California's second
    // (Labor Code 512(a)): one premium hour at $30. 382.5.
    expect(pay(planned).totals).toMatchObject({ regularMinutes: 480, overtimeMinutes: 150, penaltyHours: 1, grossPay: 382.5 });
  });
});

describe("salesByDate: by the local date of each interval's start", () => {
  it("sums to the cent in the location's zone", () => {
    const sales = salesByDate(
      [
        { startAt: Date.parse("2026-06-02T06:45:00Z"), value: 100.105 },
        { startAt: Date.parse("2026-06-02T07:00:00Z"), value: 50 },
        { startAt: Date.parse("2026-06-02T06:30:00Z"), value: 0.1 },
      ],
      "America/Los_Angeles",
    );
    expect([...sales]).toEqual([
      ["2026-06-01", 100.21],
      ["2026-06-02", 50],
    ]);
  });
});

describe("scheduleCost: the location's lines per date", () => {
  const sets = [ruleSet("ca", "CALIFORNIA")];
  const here = shift("s1", 0, 360); // no meal by 5 h: a penalty
  const there = shift("s2", 420, 180, { locationId: "loc_2" });
  const employees = computeChargedPay({
    startDate: "2026-06-01",
    endDate: "2026-06-02",
    shifts: [here, there].map(payShiftFromStored),
    timeOff: [],
    ruleSets: sets,
  });
  const cost = (targets: { laborPercent: number | null; salesPerLaborHour: number | null }, sales = new Map([["2026-06-01", 1000]])) =>
    scheduleCost({ employees, startDate: "2026-06-01", endDate: "2026-06-02", locationId: "loc_1", shifts: [here, there], sales, targets });

  it("keeps this location's lines and the penalty of the day it passed the rule in; the other's hours still push overtime", () => {
    const { dates, totals } = cost({ laborPercent: null, salesPerLaborHour: null });
    expect(dates[0]).toMatchObject({ date: "2026-06-01", scheduledMinutes: 360, regularMinutes: 360, penaltyHours: 1, laborCost: 140 });
    expect(dates[1]).toMatchObject({ date: "2026-06-02", scheduledMinutes: 0, laborCost: 0, sales: null, laborPercent: null });
    expect(totals).toMatchObject({ laborCost: 140, sales: 1000, laborPercent: 14, salesPerLaborHour: 166.67, overTarget: null });
    const other = scheduleCost({
      employees,
      startDate: "2026-06-01",
      endDate: "2026-06-01",
      locationId: "loc_2",
      shifts: [here, there],
      sales: new Map(),
      targets: { laborPercent: null, salesPerLaborHour: null },
    });
    expect(other.totals).toMatchObject({ regularMinutes: 120, overtimeMinutes: 60, penaltyHours: 0, laborCost: 70 });
  });

  it("counts a 13-hour California day as 8 regular, 4 overtime and 1 double-time hours (Cal. Labor Code 510(a))", () => {
    const long = shift("s1", 0, 780);
    const charged = computeChargedPay({
      startDate: "2026-06-01",
      endDate: "2026-06-01",
      shifts: [payShiftFromStored(long)],
      timeOff: [],
      ruleSets: sets,
    });
    const { totals } = scheduleCost({
      employees: charged,
      startDate: "2026-06-01",
      endDate: "2026-06-01",
      locationId: "loc_1",
      shifts: [long],
      sales: new Map(),
      targets: { laborPercent: null, salesPerLaborHour: null },
    });
    expect(totals).toMatchObject({ regularMinutes: 480, overtimeMinutes: 240, doubleTimeMinutes: 60 });
  });

  it("charges a meal penalty to the location of the shift during which the day passed the rule", () => {
    const first = shift("s1", 0, 240);
    const second = shift("s2", 250, 180, { locationId: "loc_2" });
    const charged = computeChargedPay({
      startDate: "2026-06-01",
      endDate: "2026-06-01",
      shifts: [first, second].map(payShiftFromStored),
      timeOff: [],
      ruleSets: sets,
    });
    const at = (locationId: string) =>
      scheduleCost({
        employees: charged,
        startDate: "2026-06-01",
        endDate: "2026-06-01",
        locationId,
        shifts: [first, second],
        sales: new Map(),
        targets: { laborPercent: null, salesPerLaborHour: null },
      }).totals;
    expect(at("loc_1")).toMatchObject({ scheduledMinutes: 240, penaltyHours: 0, laborCost: 80 });
    expect(at("loc_2")).toMatchObject({ scheduledMinutes: 180, penaltyHours: 1, laborCost: 80 });
  });

  it("counts the premiums it is given (charged to no shift) in premiumAmount and laborCost, never time off", () => {
    const first = shift("s1", 0, 240);
    const charged = computeChargedPay({
      startDate: "2026-06-01",
      endDate: "2026-06-01",
      shifts: [first].map(payShiftFromStored),
      timeOff: [{ employeeId: first.employeeId, date: "2026-06-01", hours: 2, hourlyWage: 20 }],
      ruleSets: sets,
      premiums: [
        {
          employeeId: first.employeeId,
          date: "2026-06-01",
          kind: "PREDICTABILITY",
          hours: 1,
          amount: null,
          rule: "SEATTLE.ADDED",
          hourlyWage: 20,
        },
        { employeeId: first.employeeId, date: "2026-06-01", kind: "REST", hours: null, amount: 100, rule: "NYC.REST", hourlyWage: 20 },
      ],
    });
    const { dates, totals } = scheduleCost({
      employees: charged,
      startDate: "2026-06-01",
      endDate: "2026-06-01",
      locationId: "loc_1",
      shifts: [first],
      sales: new Map(),
      targets: { laborPercent: null, salesPerLaborHour: null },
    });
    expect(dates[0]).toMatchObject({ scheduledMinutes: 240, penaltyHours: 0, premiumAmount: 120, laborCost: 200 });
    expect(totals).toMatchObject({ premiumAmount: 120, laborCost: 200 });
  });

  it.each([
    [{ laborPercent: 15, salesPerLaborHour: 100 }, false],
    [{ laborPercent: 10, salesPerLaborHour: null }, true],
    [{ laborPercent: null, salesPerLaborHour: 200 }, true],
  ] as const)("overTarget under %o is %s", (targets, over) => {
    expect(cost(targets).dates[0]!.overTarget).toBe(over);
  });
});
