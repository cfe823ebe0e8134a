import { computeChargedPay, type PayInput, type PremiumOwed } from "../pay-classification";

/**
 * What Fair Workweek premiums not yet recorded would cost each employee, in cents, as pay will price them: hours at
 * the regular rate of the workweek each is dated in, computed from `shifts` (the worked and the projected ones:
 * schedule cost's projection), or the employee's wage where they work nothing that week; flat amounts as they are.
 * Premiums never enter the regular rate, so pricing them alone (no other premium, no time off) prices them exactly
 * as the whole week would. An employee whose hours have no rate at all (no wage anywhere) counts only their flat
 * amounts.
 */
export function projectedPremiumCents(
  input: Omit<PayInput, "timeOff" | "premiums"> & { premiums: readonly PremiumOwed[] },
): Map<string, number> {
  const cents = new Map<string, number>();
  if (input.premiums.length === 0) return cents;
  for (const { pay, lines } of computeChargedPay({ ...input, timeOff: [] })) {
    const owed = lines.filter((l) => l.line.kind === "PREDICTABILITY" || l.line.kind === "REST");
    cents.set(
      pay.employeeId,
      owed.reduce((sum, l) => sum + (l.cents ?? 0), 0),
    );
  }
  return cents;
}
