import { addDays } from "../local-time";
import { centsToAmount, roundTo } from "../pay-amounts";

/** A published entry as the report counts it: its worker, local start date and scheduled minutes. */
export interface ReportEntry {
  employeeId: string;
  date: string;
  minutes: number;
}

/** A recorded schedule change: its worker, entry date and premium (null parts: none of that kind). */
export interface ReportChange {
  employeeId: string;
  entryDate: string;
  premiumHours: number | null;
  premiumAmount: number | null;
}

/** A good-faith estimate of weekly hours, in effect from its date until the next one's. */
export interface ReportEstimate {
  employeeId: string;
  effectiveFrom: string;
  weeklyHoursMin: number;
  weeklyHoursMax: number;
}

/**
 * A pay line of the worker (GET /timesheets/pay, as pay computes it): its date, kind, hours and amount in cents
 * (null: no amount, an hours premium of a worker without an hourly wage). Kinds other than the Fair Workweek premiums
 * are left out of the report.
 */
export interface ReportPayLine {
  employeeId: string;
  date: string;
  kind: string;
  hours: number;
  cents: number | null;
}

/** What a workweek owes in Fair Workweek premiums, in money: the amounts of its PREDICTABILITY and REST pay lines. */
export interface PremiumsOwed {
  predictability: number;
  rest: number;
  total: number;
}

export interface ReportWeek {
  weekStart: string;
  weekEnd: string;
  scheduledHours: number;
  estimate: { weeklyHoursMin: number; weeklyHoursMax: number; effectiveFrom: string } | null;
  outsideEstimate: boolean | null;
  changes: number;
  premiumHours: number;
  premiumAmount: number;
  restPremiumHours: number;
  restPremiumAmount: number;
  premiumsOwed: PremiumsOwed;
}

export interface ReportWorker {
  employeeId: string;
  weeks: ReportWeek[];
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** The first days of the workweeks holding a date of [startDate, endDate], in order, each once. */
export function workweekStarts(startDate: string, endDate: string, weekStartOf: (date: string) => string): string[] {
  const starts: string[] = [];
  for (let date = startDate; date <= endDate; date = addDays(date, 1)) {
    const start = weekStartOf(date);
    if (starts[starts.length - 1] !== start) starts.push(start);
  }
  return starts;
}

/**
 * Per worker and workweek: the scheduled hours of the published entries starting in it (by local date), the
 * estimate in effect on the workweek's first day and whether the hours fall outside [min, max] (null without an
 * estimate), the number of recorded changes dated in it and the sum of their premiums (hours at the regular rate,
 * and flat amounts); and what it owes in money as pay computes it: the hours and amount of its REST pay lines and the
 * amounts of its PREDICTABILITY and REST lines, each summed in cents (a line without an amount adds nothing, as in
 * grossPay). Entries, changes and lines of dates in no listed workweek are left out.
 */
export function workweekReport(input: {
  employeeIds: readonly string[];
  weekStarts: readonly string[];
  weekStartOf: (date: string) => string;
  entries: readonly ReportEntry[];
  changes: readonly ReportChange[];
  estimates: readonly ReportEstimate[];
  payLines: readonly ReportPayLine[];
}): ReportWorker[] {
  const weeks = new Set(input.weekStarts);
  const key = (employeeId: string, date: string) => `${employeeId}\u0000${input.weekStartOf(date)}`;
  const minutes = new Map<string, number>();
  for (const entry of input.entries) {
    if (!weeks.has(input.weekStartOf(entry.date))) continue;
    const k = key(entry.employeeId, entry.date);
    minutes.set(k, (minutes.get(k) ?? 0) + entry.minutes);
  }
  const changes = new Map<string, { count: number; hours: number; amount: number }>();
  for (const change of input.changes) {
    if (!weeks.has(input.weekStartOf(change.entryDate))) continue;
    const k = key(change.employeeId, change.entryDate);
    const sum = changes.get(k) ?? { count: 0, hours: 0, amount: 0 };
    sum.count += 1;
    sum.hours += change.premiumHours ?? 0;
    sum.amount += change.premiumAmount ?? 0;
    changes.set(k, sum);
  }
  const owed = new Map<string, { restHours: number; restCents: number; predictabilityCents: number }>();
  for (const line of input.payLines) {
    if ((line.kind !== "REST" && line.kind !== "PREDICTABILITY") || !weeks.has(input.weekStartOf(line.date))) continue;
    const k = key(line.employeeId, line.date);
    const sum = owed.get(k) ?? { restHours: 0, restCents: 0, predictabilityCents: 0 };
    if (line.kind === "REST") {
      sum.restHours += line.hours;
      sum.restCents += line.cents ?? 0;
    } else sum.predictabilityCents += line.cents ?? 0;
    owed.set(k, sum);
  }
  const estimatesOf = new Map<string, ReportEstimate[]>();
  for (const estimate of [...input.estimates].sort((a, b) => (a.effectiveFrom < b.effectiveFrom ? 1 : -1))) {
    estimatesOf.set(estimate.employeeId, [...(estimatesOf.get(estimate.employeeId) ?? []), estimate]);
  }
  return input.employeeIds.map((employeeId) => ({
    employeeId,
    weeks: input.weekStarts.map((weekStart) => {
      const k = `${employeeId}\u0000${weekStart}`;
      const scheduledHours = round((minutes.get(k) ?? 0) / 60, 2);
      const found = (estimatesOf.get(employeeId) ?? []).find((e) => e.effectiveFrom <= weekStart);
      const estimate = found
        ? { weeklyHoursMin: found.weeklyHoursMin, weeklyHoursMax: found.weeklyHoursMax, effectiveFrom: found.effectiveFrom }
        : null;
      const sum = changes.get(k) ?? { count: 0, hours: 0, amount: 0 };
      const due = owed.get(k) ?? { restHours: 0, restCents: 0, predictabilityCents: 0 };
      return {
        weekStart,
        weekEnd: addDays(weekStart, 6),
        scheduledHours,
        estimate,
        outsideEstimate: estimate ? scheduledHours < estimate.weeklyHoursMin || scheduledHours > estimate.weeklyHoursMax : null,
        changes: sum.count,
        premiumHours: round(sum.hours, 4),
        premiumAmount: round(sum.amount, 2),
        restPremiumHours: roundTo(due.restHours, 4),
        restPremiumAmount: centsToAmount(due.restCents),
        premiumsOwed: {
          predictability: centsToAmount(due.predictabilityCents),
          rest: centsToAmount(due.restCents),
          total: centsToAmount(due.predictabilityCents + due.restCents),
        },
      };
    }),
  }));
}
