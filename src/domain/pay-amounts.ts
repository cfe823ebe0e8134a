/**
 * Pay arithmetic of pay lines: a line's amount is its minutes ÷ 60 × its rate, rounded half away from zero to the
 * organization's currency's minor units (cents; whole yen) once per line; every total is the sum of those cents, so
 * an employee's lines always add up to their grossPay. A rate is shown to 4 decimals; one that depends on the workweek's regular rate is computed from the exact regular rate and
 * only shown rounded (29 CFR 778.115: no intermediate rounding). A premium of hours is hours × rate (0.125 h stays
 * 0.125 h, never whole minutes). `hours` of a line of minutes is for reading only.
 */

/**
 * Half away from zero. The product of a wage and minutes carries binary noise (18.15 × 100 is 1814.9999…), so the
 * value is first read at 12 significant digits, far more than any pay figure needs and far fewer than the noise.
 */
export function roundHalfAwayFromZero(value: number): number {
  const clean = Number(Math.abs(value).toPrecision(12));
  return Math.sign(value) * Math.round(clean) || 0;
}

/** Decimal hours (penalties, time off) summed without float noise. */
export const roundTo = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return roundHalfAwayFromZero(value * factor) / factor;
};

/** A rate as a line shows it and its amount is computed from: 4 decimals; null without an hourly wage. */
export const rateOf = (value: number | null): number | null => (value === null ? null : roundTo(value, 4));

/** The rate of `hourlyWage` × `multiplier`, as shown (4 decimals); null without an hourly wage. */
export const lineRate = (hourlyWage: number | null, multiplier: number): number | null =>
  hourlyWage === null ? null : rateOf(hourlyWage * multiplier);

/**
 * An exact amount in cents rounded once, half away from zero, to the currency's minor units (ISO 4217 decimals,
 * currency-minor-units.ts), as cents: JPY (0) rounds 798,333.33 cents (¥7,983.3333) to 798,300 (¥7,983), USD (2) to
 * 798,333. Pay's integer is the cent, so a currency of 3 decimals (BHD, KWD) is still rounded to 2.
 */
export function roundCentsToMinorUnits(exactCents: number, minorUnits = 2): number {
  const step = 10 ** (2 - Math.min(2, Math.max(0, minorUnits)));
  return roundHalfAwayFromZero(exactCents / step) * step;
}

/** Cents of a line: minutes ÷ 60 × rate, rounded half away from zero to the minor units; null without a rate. */
export const lineAmountCents = (minutes: number, rate: number | null, minorUnits = 2): number | null =>
  rate === null ? null : roundCentsToMinorUnits((minutes * rate * 100) / 60, minorUnits);

/** Cents of a premium of hours (Fair Workweek: 0.125 h): hours × rate, rounded as lineAmountCents; null without a rate. */
export const hoursAmountCents = (hours: number, rate: number | null, minorUnits = 2): number | null =>
  rate === null ? null : roundCentsToMinorUnits(hours * rate * 100, minorUnits);

/** Hours of whole minutes as a number to 2 decimals: 450 minutes is 7.5, 20 minutes 0.33. */
export const hoursOfMinutes = (minutes: number): number => roundHalfAwayFromZero((minutes * 100) / 60) / 100;

export { centsToAmount } from "./timesheet-totals";
