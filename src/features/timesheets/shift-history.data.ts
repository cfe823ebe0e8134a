import { shifts } from "@db/schema";
import { and, eq } from "drizzle-orm";
import { recordHistory } from "@/data/audit/record-history";
import type { Database } from "@/data/client";
import { inOrganization } from "@/data/tenancy";
import { notFound } from "@/problems/problem";
import type { TimesheetScope } from "./timesheet-scope.guards";

/**
 * A page of a shift's versions (its audit entries, oldest first, `limit + 1`), read in one batch with the shift:
 * another organization's shift, or (for a staff member who sees only their own) another's, is 404. A deleted shift
 * keeps its history.
 */
export async function shiftHistory(db: Database, scope: TimesheetScope, id: string, page: { after: number; limit: number }) {
  const { organizationId, ownStaffMemberId } = scope;
  const [found, versions] = await db.batch([
    db
      .select({ id: shifts.id })
      .from(shifts)
      .where(
        and(
          inOrganization(shifts, organizationId, { includeDeleted: true }),
          eq(shifts.id, id),
          ownStaffMemberId ? eq(shifts.employeeId, ownStaffMemberId) : undefined,
        ),
      ),
    recordHistory(db, { organizationId, resourceType: "shift", resourceId: id, ...page }),
  ]);
  if (!found[0]) throw notFound("Shift");
  return versions;
}
