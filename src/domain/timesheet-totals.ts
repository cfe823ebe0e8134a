import { MAX_MINOR_UNITS } from "./pay-amounts";

/**
 * Pay arithmetic of timesheets. A shift's amount is its payable hours × hourlyWage, rounded half away from zero
 * (amounts are never negative: Math.round) to the organization's currency's minor units once per shift: cents,
 * whole yen (JPY 0), a dinar's thousandths (BHD 3; CLF's 4 round to 3, as pay does). Every total is the sum of
 * those rounded amounts, so a report's days always add up to the listing's totals. The SQL aggregates compute
 * the same expression at each decimals (timesheet-query's amountUnitsSql), and a test holds them equal.
 */

/** The decimals a timesheet amount rounds to: the currency's ISO 4217 minor units, at most pay's 3. */
export const amountDecimals = (minorUnits: number): AmountDecimals =>
  Math.min(MAX_MINOR_UNITS, Math.max(0, Math.trunc(minorUnits))) as AmountDecimals;

/** Every decimals an amount may round to, so the database sums each and the serializer picks the currency's. */
export const AMOUNT_DECIMALS = [0, 1, 2, 3] as const;
export type AmountDecimals = (typeof AMOUNT_DECIMALS)[number];

/** A shift's amount in units of 10^-decimals (cents at 2, yen at 0, fils at 3), rounded once. */
export const amountUnits = (payableMinutes: number, hourlyWage: number, decimals: AmountDecimals = 2): number =>
  Math.round((payableMinutes * hourlyWage * 10 ** decimals) / 60);

/** Units of 10^-decimals as the amount they are: 9851 at 3 is 9.851, 7983 at 0 is 7983. */
export const unitsToAmount = (units: number, decimals: AmountDecimals = 2): number => units / 10 ** decimals;

/** A shift's amount rounded to `decimals`: payable hours × hourlyWage. */
export const shiftAmount = (payableMinutes: number, hourlyWage: number, decimals: AmountDecimals = 2): number =>
  unitsToAmount(amountUnits(payableMinutes, hourlyWage, decimals), decimals);

/** An amount as CSV writes it: exactly its currency's decimals ("9.851", "7983", "138.75"). */
export const amountText = (amount: number, decimals: AmountDecimals = 2): string => amount.toFixed(decimals);

/** Payable hours as a decimal string without trailing zeros: 450 minutes is "7.5", 20 minutes "0.33". */
export const hoursDecimal = (minutes: number): string => String(Math.round((minutes * 100) / 60) / 100);

/** Sums of the shifts' amounts, each rounded per shift to 0, 1, 2 and 3 decimals, in units of those decimals. */
export interface AmountSums {
  amountUnits0: number;
  amountUnits1: number;
  amountUnits2: number;
  amountUnits3: number;
}

/** The total of `sums` in the currency's decimals: the sum of its shifts' amounts as each was rounded. */
export const sumsToAmount = (sums: AmountSums, decimals: AmountDecimals): number => unitsToAmount(sums[`amountUnits${decimals}`], decimals);

/** Totals as the database sums them: minutes, and amounts in units of each decimals. */
export interface MinuteTotals extends AmountSums {
  count: number;
  duration: number;
  totalPaidBreaks: number;
  totalUnpaidBreaks: number;
  payableDuration: number;
  flaggedShifts: number;
}

export const ZERO_TOTALS: MinuteTotals = {
  count: 0,
  duration: 0,
  totalPaidBreaks: 0,
  totalUnpaidBreaks: 0,
  payableDuration: 0,
  amountUnits0: 0,
  amountUnits1: 0,
  amountUnits2: 0,
  amountUnits3: 0,
  flaggedShifts: 0,
};

/** The report day a shift counts on: its business date, or its start's date at a utcOffset the report asks for. */
export const reportDay = (start: Date, businessDate: string, utcOffset?: number): string =>
  utcOffset === undefined ? businessDate : new Date(start.getTime() + utcOffset * 60_000).toISOString().slice(0, 10);
