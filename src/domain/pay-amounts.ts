/**
 * Pay arithmetic of pay lines: a line's amount is its minutes ÷ 60 × its rate, rounded half away from zero to the
 * organization's currency's minor units (cents; whole yen; thousandths of a dinar) once per line; every total is the
 * sum of those amounts in cents, so an employee's lines always add up to their grossPay. Pay counts in cents: whole
 * for a currency of 0 or 2 decimals, to a tenth for one of 3 (BHD 9.851 is 985.1 cents), read back through
 * centsToAmount, which drops the noise a sum of tenths picks up. A rate is shown to 4 decimals; one that depends on the workweek's regular rate is computed from the exact regular rate and
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

/** The most decimals pay rounds to: ISO 4217's 3 (BHD, IQD, JOD, KWD, LYD, OMR, TND); CLF's and UYW's 4 round to 3. */
export const MAX_MINOR_UNITS = 3;

/**
 * An exact amount in cents rounded once, half away from zero, to the currency's minor units (ISO 4217 decimals,
 * currency-minor-units.ts), as cents: JPY (0) rounds 798,333.33 cents (¥7,983.3333) to 798,300 (¥7,983), USD (2) to
 * 798,333, BHD (3) 985.1433 cents (BD 9.851433) to 985.1 (BD 9.851).
 */
export function roundCentsToMinorUnits(exactCents: number, minorUnits = 2): number {
  const units = Math.min(MAX_MINOR_UNITS, Math.max(0, minorUnits));
  if (units > 2) return roundHalfAwayFromZero(exactCents * 10 ** (units - 2)) / 10 ** (units - 2);
  const step = 10 ** (2 - units);
  return roundHalfAwayFromZero(exactCents / step) * step;
}

/**
 * An amount of cents (a sum of lines) as the amount it is: to the cent, or to the thousandth when it holds tenths of
 * a cent (a 3-decimal currency), the float noise of summing tenths dropped.
 */
export const centsToAmount = (cents: number): number => (Number.isInteger(cents) ? cents / 100 : Math.round(cents * 10) / 1000);

/** An amount (at most 3 decimals) in cents, tenths of a cent kept: what sums of answered amounts add. */
export const amountToCents = (amount: number): number => Math.round(amount * 1000) / 10;

/** Cents of a line: minutes ÷ 60 × rate, rounded half away from zero to the minor units; null without a rate. */
export const lineAmountCents = (minutes: number, rate: number | null, minorUnits = 2): number | null =>
  rate === null ? null : roundCentsToMinorUnits((minutes * rate * 100) / 60, minorUnits);

/** Cents of a premium of hours (Fair Workweek: 0.125 h): hours × rate, rounded as lineAmountCents; null without a rate. */
export const hoursAmountCents = (hours: number, rate: number | null, minorUnits = 2): number | null =>
  rate === null ? null : roundCentsToMinorUnits(hours * rate * 100, minorUnits);

/** Hours of whole minutes as a number to 2 decimals: 450 minutes is 7.5, 20 minutes 0.33. */
export const hoursOfMinutes = (minutes: number): number => roundHalfAwayFromZero((minutes * 100) / 60) / 100;
