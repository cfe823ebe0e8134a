import { type availabilities, availabilityOccurrences } from "@db/schema";
import { sql } from "drizzle-orm";
import type { Occurrence } from "@/domain/availability";
import { preconditionFailed } from "@/problems/problem";
import { chunk } from "./chunk";
import type { Database, Statement } from "./client";
import { guard } from "./write/guard";

type AvailabilityRow = typeof availabilities.$inferSelect;

/** availability_id (a guard of 2 parameters), organization_id, employee_id, type, start_at, end_at: 12 rows = 96 parameters. */
const OCCURRENCES_PER_STATEMENT = 12;

/**
 * availability_occurrences.availability_id: the rule's id only while the rule is the version this write read or
 * made, so a stale edit (412) or a Cron top-up overtaken by an edit writes no occurrence.
 */
export const occurrencesOfVersion = guard({
  column: availabilityOccurrences.availabilityId,
  problem: preconditionFailed,
  sql: (row: Pick<AvailabilityRow, "id" | "updatedAt">) =>
    sql`(SELECT id FROM availabilities WHERE id = ${row.id} AND updated_at = ${row.updatedAt.getTime()} AND deleted_at IS NULL)`,
});

/**
 * The occurrence rows of an availability, written out in chunked multi-row INSERTs, each guarded by
 * `occurrencesOfVersion`; one already written (same rule, same start) is kept.
 */
export function occurrenceStatements(db: Database, row: AvailabilityRow, occurrences: readonly Occurrence[]): Statement[] {
  const written = occurrencesOfVersion.sql(row);
  const rows = occurrences.map((o) => ({
    availabilityId: written as unknown as string,
    organizationId: row.organizationId,
    employeeId: row.employeeId,
    type: row.type,
    startAt: o.utcStartTime.getTime(),
    endAt: o.utcEndTime.getTime(),
  }));
  // Two occurrences starting at one instant (a fall-back hour read twice) are one.
  const unique = [...new Map(rows.map((r) => [r.startAt, r])).values()];
  return chunk(unique, OCCURRENCES_PER_STATEMENT).map((part) => db.insert(availabilityOccurrences).values(part).onConflictDoNothing());
}
