/**
 * Pay arithmetic of pay lines: amount = hourlyWage × hours × multiplier, rounded to cents half away from zero once
 * per line; every total is the sum of those cents, so an employee's lines always add up to their grossPay.
 */

/**
 * Half away from zero. The product of a wage and minutes carries binary noise (18.15 × 100 is 1814.9999…), so the
 * value is first read at 12 significant digits, far more than any pay figure needs and far fewer than the noise.
 */
export function roundHalfAwayFromZero(value: number): number {
  const clean = Number(Math.abs(value).toPrecision(12));
  return Math.sign(value) * Math.round(clean) || 0;
}

/** Cents of `minutes` at `hourlyWage` × `multiplier`; null when the employee is not paid by the hour. */
export const lineAmountCents = (minutes: number, hourlyWage: number | null, multiplier: number): number | null =>
  hourlyWage === null ? null : roundHalfAwayFromZero((minutes * hourlyWage * multiplier * 100) / 60);

/** The rate a line is paid at (wage × multiplier), to 4 decimals; null without an hourly wage. */
export const lineRate = (hourlyWage: number | null, multiplier: number): number | null =>
  hourlyWage === null ? null : roundTo(hourlyWage * multiplier, 4);

/** Hours of whole minutes as a number to 2 decimals: 450 minutes is 7.5, 20 minutes 0.33. */
export const hoursOfMinutes = (minutes: number): number => roundHalfAwayFromZero((minutes * 100) / 60) / 100;

/** Decimal hours (penalties, time off) summed without float noise. */
export const roundTo = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return roundHalfAwayFromZero(value * factor) / factor;
};

export { centsToAmount } from "./timesheet-totals";
