import { describe, expect, it } from "vitest";
import { rulePack } from "@/domain/fair-workweek/packs";
import { restPremiums } from "@/domain/fair-workweek/rest-premiums";
import { computePay, type PayShift } from "@/domain/pay-classification";

const shift = (id: string, date: string, start: string, end: string, endDate = date): PayShift => ({
  id,
  employeeId: "ann",
  locationId: "here",
  businessDate: date,
  startTime: new Date(`${date}T${start}:00Z`),
  endTime: new Date(`${endDate}T${end}:00Z`),
  hourlyWage: 20,
  breaks: [],
});
const seattle = rulePack("SEATTLE", "2026-10-01")!;
const nyc = rulePack("NYC_FAST_FOOD", "2026-10-01")!;

describe("restPremiums (worked shifts inside the rest window)", () => {
  it.each([
    ["Seattle, 8 h rest: the extra 0.5 × the 2 h inside 10 h (SMC 14.22.035)", seattle, "22:00", "06:00", { hours: 1, amount: null }],
    ["Seattle, exactly 10 h rest: none", seattle, "20:00", "06:00", null],
    ["NYC clopening, 9 h rest: $100 (Admin. Code 20-1231)", nyc, "22:00", "07:00", { hours: null, amount: 100 }],
  ] as const)("%s", (_, pack, end, nextStart, premium) => {
    const shifts = [shift("a", "2026-10-06", "14:00", end), shift("b", "2026-10-07", nextStart, "14:00")];
    const owed = restPremiums(
      shifts,
      () => pack,
      () => 20,
    );
    expect(owed).toEqual(premium ? [expect.objectContaining({ employeeId: "ann", date: "2026-10-07", kind: "REST", ...premium })] : []);
  });

  it("a location without a pack earns nothing; another employee's shift is no previous shift", () => {
    const shifts = [shift("a", "2026-10-06", "14:00", "22:00"), { ...shift("b", "2026-10-07", "06:00", "14:00"), employeeId: "bob" }];
    expect(
      restPremiums(
        shifts,
        () => seattle,
        () => 20,
      ),
    ).toEqual([]);
    expect(
      restPremiums(
        [shifts[0]!, { ...shifts[1]!, employeeId: "ann" }],
        () => null,
        () => 20,
      ),
    ).toEqual([]);
  });
});

describe("restPremiums over several employees' shifts in any order", () => {
  const ann = [shift("a", "2026-10-06", "14:00", "22:00"), shift("b", "2026-10-07", "06:00", "14:00")];
  const bob = ann.map((s) => ({ ...s, id: `bob-${s.id}`, employeeId: "bob" }));
  // Ann clocked in at 20:00, six hours after her shift b ended, and has not clocked out: an open shift earns nothing yet.
  const open = { ...shift("c", "2026-10-07", "20:00", "23:00"), endTime: null };

  it("pairs each employee's shifts in start order: 8 h rest in Seattle is 1 premium hour each (0.5 × 2 h inside 10 h)", () => {
    const owed = restPremiums(
      [bob[1]!, ann[1]!, open, bob[0]!, ann[0]!],
      () => seattle,
      () => 20,
    );
    expect(owed.map((o) => [o.employeeId, o.date, o.hours, o.amount])).toEqual([
      ["ann", "2026-10-07", 1, null],
      ["bob", "2026-10-07", 1, null],
    ]);
  });

  it("a pack that publishes no rest figure flags the violation and pays nothing", () => {
    const unpublished = { ...seattle, rest: { ...seattle.rest!, published: false } };
    expect(
      restPremiums(
        ann,
        () => unpublished,
        () => 20,
      ),
    ).toEqual([]);
  });
});

describe("computePay with premiums (pay, not hours worked)", () => {
  const shifts = [shift("a", "2026-10-06", "09:00", "17:00")];
  const premiums = [
    {
      employeeId: "ann",
      date: "2026-10-06",
      kind: "PREDICTABILITY" as const,
      hours: 1,
      amount: null,
      rule: "SEATTLE.X" as const,
      hourlyWage: 20,
    },
    {
      employeeId: "ann",
      date: "2026-10-07",
      kind: "PREDICTABILITY" as const,
      hours: null,
      amount: 15,
      rule: "NYC.Y" as const,
      hourlyWage: 20,
    },
    { employeeId: "ann", date: "2026-11-30", kind: "REST" as const, hours: null, amount: 100, rule: "NYC.Z" as const, hourlyWage: 20 },
  ];
  it("hours at the workweek's regular rate, a flat amount as is, none outside the range; no minute total counts them", () => {
    const pay = computePay({ startDate: "2026-10-05", endDate: "2026-10-11", shifts, timeOff: [], ruleSets: [], premiums });
    const [ann] = pay.employees;
    expect(ann!.lines.filter((l) => l.kind === "PREDICTABILITY")).toEqual([
      {
        date: "2026-10-06",
        shiftId: null,
        kind: "PREDICTABILITY",
        minutes: 60,
        hours: 1,
        rate: 20,
        amount: 20,
        rule: "SEATTLE.X",
        ruleSetId: null,
      },
      {
        date: "2026-10-07",
        shiftId: null,
        kind: "PREDICTABILITY",
        minutes: 0,
        hours: 0,
        rate: null,
        amount: 15,
        rule: "NYC.Y",
        ruleSetId: null,
      },
    ]);
    expect(ann).toMatchObject({ regularMinutes: 480, timeOffHours: 0, penaltyHours: 0, grossPay: 195 });
    expect(ann!.workweeks).toMatchObject([{ minutes: 480, regularRate: 20 }]);
  });
});
