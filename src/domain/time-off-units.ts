export interface UnitsOf {
  units: string;
  fullDayDuration: number;
}

export const roundHours = (n: number) => Math.round(n * 10_000) / 10_000;

/** Ledger hours as the policy shows them: days (hours ÷ fullDayDuration) when its units are days. */
export const inUnits = (hours: number, policy: UnitsOf) => roundHours(policy.units === "days" ? hours / policy.fullDayDuration : hours);

/** An amount in the policy's units as ledger hours. */
export const toHours = (amount: number, policy: UnitsOf) => (policy.units === "days" ? amount * policy.fullDayDuration : amount);
