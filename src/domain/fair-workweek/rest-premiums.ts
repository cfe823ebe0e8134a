import type { PayShift, PremiumOwed } from "@/domain/pay-classification";
import type { RulePack } from "./packs";
import { restPremium, restViolation } from "./rest";

/**
 * The REST premiums worked shifts earn: for each employee's closed shifts in start order, a shift that started less
 * than its location's pack's rest hours after the previous one ended (restViolation) earns the pack's premium
 * (restPremium: Seattle the extra half of the hours inside the window, NYC $100), dated by that shift's business date.
 * Worked means earned, consent or not. A pack that publishes no figure flags the violation and pays nothing here.
 * Shifts are on their local wall clock (pay's reading), so the rest is judged on local time.
 */
export function restPremiums(
  shifts: readonly PayShift[],
  packOf: (locationId: string, date: string) => RulePack | null,
  wageOf: (employeeId: string) => number | null,
): PremiumOwed[] {
  const closed = shifts
    .filter((s): s is PayShift & { endTime: Date } => s.endTime !== null)
    .sort((a, b) => (a.employeeId < b.employeeId ? -1 : a.employeeId > b.employeeId ? 1 : a.startTime.getTime() - b.startTime.getTime()));
  const owed: PremiumOwed[] = [];
  for (let i = 1; i < closed.length; i++) {
    const previous = closed[i - 1]!;
    const next = closed[i]!;
    if (previous.employeeId !== next.employeeId) continue;
    const pack = packOf(next.locationId, next.businessDate);
    if (!pack) continue;
    const violation = restViolation(pack, previous.endTime, next.startTime, next.endTime, "UTC", previous.startTime);
    if (!violation) continue;
    const premium = restPremium(pack, violation);
    if (premium.flagged || (premium.hours === null && premium.amount === null)) continue;
    owed.push({
      employeeId: next.employeeId,
      date: next.businessDate,
      kind: "REST",
      hours: premium.hours,
      amount: premium.amount,
      rule: premium.rule as `${string}.${string}`,
      hourlyWage: wageOf(next.employeeId),
      locationId: next.locationId,
    });
  }
  return owed;
}
