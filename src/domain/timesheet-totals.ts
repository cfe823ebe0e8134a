/**
 * Pay arithmetic of timesheets. A shift's amount is its payable hours × hourlyWage, rounded to the cent once
 * per shift; every total is the sum of those cents, so a report's days always add up to the listing's totals.
 * The SQL aggregates compute the same expression (see timesheet-query's amountCents), and a test holds them equal.
 */
export const amountCents = (payableMinutes: number, hourlyWage: number): number => Math.round((payableMinutes * hourlyWage * 100) / 60);

export const centsToAmount = (cents: number): number => cents / 100;

/** Payable hours as a decimal string without trailing zeros: 450 minutes is "7.5", 20 minutes "0.33". */
export const hoursDecimal = (minutes: number): string => String(Math.round((minutes * 100) / 60) / 100);

/** Totals as the database sums them: minutes and cents. */
export interface MinuteTotals {
  count: number;
  duration: number;
  totalPaidBreaks: number;
  totalUnpaidBreaks: number;
  payableDuration: number;
  amountCents: number;
  flaggedShifts: number;
}

export const ZERO_TOTALS: MinuteTotals = {
  count: 0,
  duration: 0,
  totalPaidBreaks: 0,
  totalUnpaidBreaks: 0,
  payableDuration: 0,
  amountCents: 0,
  flaggedShifts: 0,
};

/** The report day a shift counts on: its business date, or its start's date at a utcOffset the report asks for. */
export const reportDay = (start: Date, businessDate: string, utcOffset?: number): string =>
  utcOffset === undefined ? businessDate : new Date(start.getTime() + utcOffset * 60_000).toISOString().slice(0, 10);
