import { availabilityOccurrences } from "@db/schema";
import { and, eq, gt, lt, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { inJsonList } from "@/data/json-list";
import { MAX_OCCURRENCE_MS } from "@/domain/availability-limits";

/** An occurrence's wall-clock length is capped; across a fall-back change it lasts up to an hour more in real time. */
const LONGEST_MS = MAX_OCCURRENCE_MS + 3_600_000;

/*
 * What scheduling reads of availability: the stored occurrences (features/availability writes them), never the
 * rules, so a schedule write loads no RRULE code.
 */

/**
 * A SQL boolean for guards (compares only with bound values): an UNAVAILABLE occurrence of the staff member
 * overlaps [start, end). Occurrences last at most MAX_OCCURRENCE_MS, which bounds the index range read.
 */
export const unavailableDuring = (organizationId: string, employeeId: string, start: Date, end: Date): SQL =>
  sql`EXISTS (SELECT 1 FROM availability_occurrences WHERE employee_id = ${employeeId} AND start_at < ${end.getTime()}
    AND start_at > ${start.getTime() - LONGEST_MS} AND end_at > ${start.getTime()} AND type = 'UNAVAILABLE'
    AND +organization_id = ${organizationId})`;

/**
 * A SQL boolean for statements over schedule_entries (publish): an UNAVAILABLE occurrence of the row's own staff
 * member overlaps the row's [start_at, end_at).
 */
export const entryUnavailable: SQL = sql`EXISTS (SELECT 1 FROM availability_occurrences o
    WHERE o.employee_id = "schedule_entries"."employee_id" AND o.start_at < "schedule_entries"."end_at"
    AND o.start_at > "schedule_entries"."start_at" - ${LONGEST_MS} AND o.end_at > "schedule_entries"."start_at"
    AND o.type = 'UNAVAILABLE' AND o.organization_id = "schedule_entries"."organization_id")`;

/** The UNAVAILABLE occurrences of these staff members overlapping [start, end), as instants (bulk copy's skips). */
export async function unavailableSpans(
  db: Database,
  organizationId: string,
  employeeIds: readonly string[],
  range: { start: Date; end: Date },
) {
  if (employeeIds.length === 0) return [];
  const rows = await db
    .select({ employeeId: availabilityOccurrences.employeeId, start: availabilityOccurrences.startAt, end: availabilityOccurrences.endAt })
    .from(availabilityOccurrences)
    .where(
      and(
        inJsonList(availabilityOccurrences.employeeId, employeeIds),
        lt(availabilityOccurrences.startAt, range.end.getTime()),
        gt(availabilityOccurrences.startAt, range.start.getTime() - LONGEST_MS),
        eq(availabilityOccurrences.organizationId, organizationId),
        gt(availabilityOccurrences.endAt, range.start.getTime()),
        eq(availabilityOccurrences.type, "UNAVAILABLE"),
      ),
    );
  return rows.map((r) => ({ employeeId: r.employeeId, start: new Date(r.start), end: new Date(r.end) }));
}
