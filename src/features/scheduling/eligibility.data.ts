import { availabilityOccurrences, payRuleSets, scheduleEntries, staffMembers, timeOffRequests } from "@db/schema";
import { and, eq, gt, gte, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { MAX_OCCURRENCE_MS } from "@/domain/availability-limits";
import { type Eligibility, rankEligibility } from "@/domain/eligibility";
import { addDays, businessDate, localDayBounds, offsetMinutesAt } from "@/domain/local-time";
import { governingRuleSets } from "@/domain/pay-rules";
import { organizationWorkweekStartsOn, workweekStart } from "@/domain/pay-workweek";
import { planEntrySpan } from "@/domain/schedule-entry";
import { validationFailed } from "@/problems/problem";
import { ruleSetOfRow } from "@/wire/pay-rule-set.schemas";
import type { LocationRow, ScheduleScope } from "./schedule-access.guards";

const DAY_MS = 86_400_000;

/** Active staff members assigned to the location (with the role, when named), as a subquery of ids. */
const staffAt = (organizationId: string, locationId: string, roleId: string | undefined): SQL =>
  sql`SELECT id FROM staff_members WHERE organization_id = ${organizationId} AND deleted_at IS NULL AND active = 1
    AND EXISTS (SELECT 1 FROM json_each(location_ids) WHERE value = ${locationId})
    ${roleId === undefined ? sql`` : sql`AND EXISTS (SELECT 1 FROM json_each(role_ids) WHERE value = ${roleId})`}`;

/**
 * GET …/schedules/eligibility: every active staff member of the location for the slot, ranked (domain/eligibility).
 * Two round trips after the location's: the pay rule sets (the workweek and weekly threshold); then the staff, their
 * availability occurrences and approved time off overlapping the slot, and their live entries of that workweek or
 * overlapping the slot.
 */
export async function eligibility(
  db: Database,
  scope: ScheduleScope,
  location: LocationRow,
  query: { startTime: string; endTime: string; roleId?: string },
): Promise<Eligibility[]> {
  const plan = planEntrySpan({ start: new Date(query.startTime), end: new Date(query.endTime) }, { timeZone: location.timezone });
  if (!plan.ok) throw validationFailed(plan.errors);
  const slot = { start: plan.start, end: plan.end };
  const staff = staffAt(scope.organizationId, location.id, query.roleId);
  // A workweek starts at most 6 days before the slot: a week's margin either side holds every entry it counts.
  const around = { start: slot.start.getTime() - 8 * DAY_MS, end: slot.start.getTime() + 8 * DAY_MS };
  // The rule sets first: they name the workweek, so only its entries and those overlapping the slot are read (a
  // 10,000-staff location's 16 days of entries would be most of the heap).
  const sets = await db
    .select()
    .from(payRuleSets)
    .where(and(eq(payRuleSets.organizationId, scope.organizationId), isNull(payRuleSets.deletedAt)));
  const date = businessDate(slot.start, offsetMinutesAt(location.timezone, slot.start));
  const ruleSets = sets.map(ruleSetOfRow);
  const { rules } = governingRuleSets(ruleSets)(location.id, date);
  // One workweek per employee, the organization's, whatever the location's own set (29 CFR 778.103–778.105).
  const weekStart = workweekStart(date, organizationWorkweekStartsOn(ruleSets)(date));
  const week = {
    start: localDayBounds(weekStart, location.timezone).start,
    end: localDayBounds(addDays(weekStart, 6), location.timezone).end,
  };
  const [staffRows, occurrences, timeOff, entries] = await db.batch([
    db.select({ id: staffMembers.id }).from(staffMembers).where(sql`${staffMembers.id} IN (${staff})`),
    db
      .select({
        employeeId: availabilityOccurrences.employeeId,
        type: availabilityOccurrences.type,
        start: availabilityOccurrences.startAt,
        end: availabilityOccurrences.endAt,
      })
      .from(availabilityOccurrences)
      .where(
        and(
          sql`${availabilityOccurrences.employeeId} IN (${staff})`,
          lt(availabilityOccurrences.startAt, slot.end.getTime()),
          gt(availabilityOccurrences.startAt, slot.start.getTime() - MAX_OCCURRENCE_MS - 3_600_000),
          gt(availabilityOccurrences.endAt, slot.start.getTime()),
        ),
      ),
    db
      .select({ employeeId: timeOffRequests.workerId, start: timeOffRequests.startAt, end: timeOffRequests.endAt })
      .from(timeOffRequests)
      .where(
        and(
          sql`${timeOffRequests.workerId} IN (${staff})`,
          eq(timeOffRequests.status, "approved"),
          isNull(timeOffRequests.deletedAt),
          lt(timeOffRequests.startAt, slot.end),
          gt(timeOffRequests.endAt, slot.start),
        ),
      ),
    db
      .select({ employeeId: scheduleEntries.employeeId, start: scheduleEntries.startAt, end: scheduleEntries.endAt })
      .from(scheduleEntries)
      .where(
        and(
          sql`${scheduleEntries.employeeId} IN (${staff})`,
          isNull(scheduleEntries.deletedAt),
          gt(scheduleEntries.startAt, new Date(around.start)),
          lt(scheduleEntries.startAt, new Date(around.end)),
          or(
            and(gte(scheduleEntries.startAt, week.start), lt(scheduleEntries.startAt, week.end)),
            and(lt(scheduleEntries.startAt, slot.end), gt(scheduleEntries.endAt, slot.start)),
          ),
        ),
      ),
  ]);
  const asSpan = (r: { employeeId: string; start: number | Date; end: number | Date }) => ({
    employeeId: r.employeeId,
    start: new Date(r.start),
    end: new Date(r.end),
  });
  return rankEligibility({
    slot,
    week,
    weeklyOvertimeAfterMinutes: rules.weeklyOvertimeAfterMinutes,
    staffIds: staffRows.map((s) => s.id),
    unavailable: occurrences.filter((o) => o.type === "UNAVAILABLE").map(asSpan),
    preferred: occurrences.filter((o) => o.type === "PREFERRED").map(asSpan),
    timeOff: timeOff.map(asSpan),
    entries: entries.map(asSpan),
  });
}
