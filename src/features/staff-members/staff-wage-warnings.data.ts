import { organizations, payRuleSets } from "@db/schema";
import { and, eq, isNull } from "drizzle-orm";
import { chunk, rowsPerStatement } from "@/data/chunk";
import type { Database } from "@/data/client";
import { shiftedNow } from "@/data/clock";
import { staffRatesEffectiveBy } from "@/data/wage-rates.data";
import { AWARD_MINIMUM_WAGES } from "@/domain/pay-presets/award-minimum-wages";
import { governingRuleSets } from "@/domain/pay-rules";
import { type StaffWageWarning, staffWageWarnings, type WarnedStaffMember } from "@/domain/staff-wage-warnings";
import type { WageRateRow } from "@/domain/wage-rate";
import { ruleSetOfRow } from "@/wire/pay-rule-set.schemas";

/** The organization's rule sets and its clock: what tells whether any location's preset has a minimum, and today. */
export const warningBasisStatements = (db: Database, organizationId: string) =>
  [
    db
      .select()
      .from(payRuleSets)
      .where(and(eq(payRuleSets.organizationId, organizationId), isNull(payRuleSets.deletedAt))),
    db.select({ offset: organizations.clockOffsetMs }).from(organizations).where(eq(organizations.id, organizationId)),
  ] as const;

/** What readWarningBasis answers: the rule set rows and the organization's clock offset. */
export type Basis = readonly [(typeof payRuleSets.$inferSelect)[], readonly { offset: number | null }[]];

/** The organization's rule sets and clock, in one round trip (sent beside the staff read, not after it). */
export const readWarningBasis = (db: Database, organizationId: string): Promise<Basis> =>
  db.batch(warningBasisStatements(db, organizationId)) as Promise<Basis>;

const IDS_PER_STATEMENT = rowsPerStatement(1, 5);

/** The staff members' live wage rates effective by `date`, by staff member. */
async function ratesOf(db: Database, organizationId: string, ids: readonly string[], date: string) {
  const statements = chunk(ids, IDS_PER_STATEMENT).map((part) => staffRatesEffectiveBy(db, organizationId, part, date));
  const [first, ...rest] = statements;
  const rows = first ? ((await db.batch([first, ...rest])) as WageRow[][]).flat() : [];
  const byStaff = new Map<string, WageRateRow[]>();
  for (const row of rows) byStaff.set(row.employeeId, [...(byStaff.get(row.employeeId) ?? []), row]);
  return byStaff;
}
type WageRow = WageRateRow & { employeeId: string };

/**
 * Each staff member's wages below their award's minimum today (the organization's clock, UTC date), by id
 * (domain/staff-wage-warnings). The wage rates are read only when a rule set's preset has a minimum: an organization
 * without one answers from the basis alone.
 */
export async function wageWarningsOf(
  db: Database,
  organizationId: string,
  [sets, clock]: Basis,
  staff: readonly (WarnedStaffMember & { id: string })[],
): Promise<Map<string, StaffWageWarning[]>> {
  const warnings = new Map<string, StaffWageWarning[]>();
  const judged = staff.filter((s) => s.wageType !== "salary");
  if (!sets.some((set) => AWARD_MINIMUM_WAGES[set.preset as keyof typeof AWARD_MINIMUM_WAGES]) || judged.length === 0) return warnings;
  const date = shiftedNow(clock[0]?.offset ?? 0)
    .toISOString()
    .slice(0, 10);
  const governing = governingRuleSets(sets.map(ruleSetOfRow));
  const rates = await ratesOf(
    db,
    organizationId,
    judged.map((s) => s.id),
    date,
  );
  for (const member of judged) warnings.set(member.id, staffWageWarnings(member, rates.get(member.id) ?? [], governing, date));
  return warnings;
}
