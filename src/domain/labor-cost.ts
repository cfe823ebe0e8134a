import { centsToAmount, roundTo } from "./pay-amounts";
import type { ChargedLine } from "./pay-classification";
import { AWARD_KINDS } from "./pay-lines";

/*
 * Labor cost: the pay engine's lines grouped by the keys asked for, each line charged to its shift's location, role
 * and cost code (computeChargedPay says which shift: overtime the shift whose minutes became overtime, a meal penalty
 * the shift during which the day passed the rule), time off to no shift (null keys), a Fair Workweek premium to the
 * location of the entry that earned it (role and cost code null). Every sum is kept in cents, so
 * Σ rows' laborCost = totals' laborCost = the pay lines' grossPay, to the cent.
 */

export const LABOR_COST_KEYS = ["date", "location", "role", "costCode", "employee"] as const;
export type LaborCostKey = (typeof LABOR_COST_KEYS)[number];

/** What a shift's cost is charged to. */
export interface ShiftCharge {
  locationId: string;
  roleId: string | null;
  costCodeId: string | null;
}

export interface LaborCostFigures {
  regularMinutes: number;
  overtimeMinutes: number;
  doubleTimeMinutes: number;
  penaltyHours: number;
  timeOffHours: number;
  premiumAmount: number;
  laborCost: number;
}

export interface LaborCostRow extends LaborCostFigures {
  date?: string;
  locationId?: string | null;
  roleId?: string | null;
  costCodeId?: string | null;
  employeeId?: string;
}

/** The row field of each key. */
const FIELD = { date: "date", location: "locationId", role: "roleId", costCode: "costCodeId", employee: "employeeId" } as const;

/** Kinds paid for minutes worked or taken off; any other kind (a meal penalty, a scheduling premium) is a premium. */
const MINUTES_KINDS = new Set(["REGULAR", "OVERTIME", "DOUBLE_TIME", "TIME_OFF"]);

/**
 * The groupBy parameter as keys, in the order given (duplicates once); empty or absent: none (one row). An unknown
 * key is `{ invalid }`.
 */
export function parseGroupBy(text: string | undefined): { keys: LaborCostKey[] } | { invalid: string } {
  const keys: LaborCostKey[] = [];
  for (const raw of (text ?? "").split(",")) {
    const key = raw.trim();
    if (key === "") continue;
    if (!(LABOR_COST_KEYS as readonly string[]).includes(key)) return { invalid: key };
    if (!keys.includes(key as LaborCostKey)) keys.push(key as LaborCostKey);
  }
  return { keys };
}

interface Accumulated {
  keys: (string | null)[];
  regularMinutes: number;
  overtimeMinutes: number;
  doubleTimeMinutes: number;
  penaltyHours: number;
  timeOffHours: number;
  premiumCents: number;
  cents: number;
}

const empty = (keys: (string | null)[]): Accumulated => ({
  keys,
  regularMinutes: 0,
  overtimeMinutes: 0,
  doubleTimeMinutes: 0,
  penaltyHours: 0,
  timeOffHours: 0,
  premiumCents: 0,
  cents: 0,
});

function addLine(into: Accumulated, { line, cents }: ChargedLine): void {
  if (line.kind === "REGULAR") into.regularMinutes += line.minutes;
  else if (line.kind === "OVERTIME") into.overtimeMinutes += line.minutes;
  else if (line.kind === "DOUBLE_TIME") into.doubleTimeMinutes += line.minutes;
  else if (line.kind === "TIME_OFF") into.timeOffHours += line.hours;
  // An award's or a state's pay beyond hours worked (AWARD_KINDS) is not a penalty hour, as pay's totals count it.
  else if (!AWARD_KINDS.includes(line.kind)) into.penaltyHours += line.hours;
  if (!MINUTES_KINDS.has(line.kind)) into.premiumCents += cents ?? 0;
  into.cents += cents ?? 0;
}

const figuresOf = (a: Accumulated): LaborCostFigures => ({
  regularMinutes: a.regularMinutes,
  overtimeMinutes: a.overtimeMinutes,
  doubleTimeMinutes: a.doubleTimeMinutes,
  penaltyHours: roundTo(a.penaltyHours, 4),
  timeOffHours: roundTo(a.timeOffHours, 4),
  premiumAmount: centsToAmount(a.premiumCents),
  laborCost: centsToAmount(a.cents),
});

/** Keys compare as text, a null key (time off's location, role, cost code) after every other. */
function compareKeys(a: readonly (string | null)[], b: readonly (string | null)[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Labor cost accumulated employee by employee (a page at a time, so an organization's lines are never all held):
 * `add` an employee's charged lines with the charges of their shifts, then `result`: the rows, ordered by their keys
 * (nulls last), and their totals.
 */
export function laborCostAccumulator(groupBy: readonly LaborCostKey[]) {
  const groups = new Map<string, Accumulated>();
  const total = empty([]);
  return {
    add(employeeId: string, lines: readonly ChargedLine[], charges: ReadonlyMap<string, ShiftCharge>): void {
      for (const charged of lines) {
        const shift = charged.chargedShiftId === null ? undefined : charges.get(charged.chargedShiftId);
        const keys = groupBy.map((key) => {
          if (key === "date") return charged.line.date;
          if (key === "employee") return employeeId;
          if (key === "location") return shift?.locationId ?? charged.chargedLocationId ?? null;
          if (key === "role") return shift?.roleId ?? null;
          return shift?.costCodeId ?? null;
        });
        const id = JSON.stringify(keys);
        let group = groups.get(id);
        if (!group) {
          group = empty(keys);
          groups.set(id, group);
        }
        addLine(group, charged);
        addLine(total, charged);
      }
    },
    result(): { rows: LaborCostRow[]; totals: LaborCostFigures } {
      // With no key every line is one row, even when there is none (then all zeros).
      if (groupBy.length === 0) return { rows: [figuresOf(total)], totals: figuresOf(total) };
      const rows = [...groups.values()]
        .sort((a, b) => compareKeys(a.keys, b.keys))
        .map((group) => {
          const row: LaborCostRow = figuresOf(group);
          const keyed: Record<string, string | null> = {};
          groupBy.forEach((key, i) => {
            keyed[FIELD[key]] = group.keys[i] ?? null;
          });
          return { ...keyed, ...row } as LaborCostRow;
        });
      return { rows, totals: figuresOf(total) };
    },
  };
}
