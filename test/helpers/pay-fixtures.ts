import type { PayShift } from "@/domain/pay-classification";
import { type PayPreset, type PayRuleSet, type PayRules, PRESET_RULES } from "@/domain/pay-rules";
import type { BreakSpan } from "@/domain/shift-totals";

const MINUTE_MS = 60_000;

/** A local wall-clock reading (written with Z) on a date at HH:MM, plus minutes. */
export const wallClock = (date: string, time: string, plusMinutes = 0) =>
  new Date(Date.parse(`${date}T${time}:00.000Z`) + plusMinutes * MINUTE_MS);

export const unpaidBreak = (date: string, time: string, minutes: number, overrides: Partial<BreakSpan> = {}): BreakSpan => ({
  startTime: wallClock(date, time),
  endTime: wallClock(date, time, minutes),
  paid: false,
  durationInSettingsMinutes: minutes,
  ...overrides,
});

let counter = 0;

/** A closed shift starting at `time` on `date` lasting `minutes` (past midnight when long), on its business date. */
export function payShift(date: string, time: string, minutes: number, overrides: Partial<PayShift> = {}): PayShift {
  counter += 1;
  return {
    id: `shf_${String(counter).padStart(5, "0")}`,
    employeeId: "emp_a",
    locationId: "loc_1",
    businessDate: date,
    startTime: wallClock(date, time),
    endTime: wallClock(date, time, minutes),
    hourlyWage: 20,
    breaks: [],
    ...overrides,
  };
}

export const ruleSet = (
  id: string,
  preset: PayPreset,
  overrides: Partial<PayRules> & { locationId?: string | null; effectiveFrom?: string } = {},
): PayRuleSet => ({
  id,
  preset,
  locationId: null,
  effectiveFrom: "2026-01-01",
  ...PRESET_RULES[preset],
  ...overrides,
});

/** 2026-06-01 is a Monday; WEEK[0..6] are Monday to Sunday. */
export const WEEK = ["2026-06-01", "2026-06-02", "2026-06-03", "2026-06-04", "2026-06-05", "2026-06-06", "2026-06-07"] as const;
