import { goodFaithEstimates, locationFairWorkweek } from "@db/schema";
import { type SQL, sql } from "drizzle-orm";
import { guard } from "@/data/write/guard";
import { notFound } from "@/problems/problem";

/** location_fair_workweek.organization_id: the organization, NULL once the location is deleted or is not its. */
export const locationLive = guard({
  column: locationFairWorkweek.organizationId,
  problem: () => notFound("Location"),
  sql: (organizationId: string, locationId: string): SQL =>
    sql`(SELECT organization_id FROM locations WHERE id = ${locationId} AND organization_id = ${organizationId}
      AND deleted_at IS NULL)`,
});

/** good_faith_estimates.organization_id: the organization, NULL once the staff member is deleted or is not its. */
export const staffMemberLive = guard({
  column: goodFaithEstimates.organizationId,
  problem: () => notFound("Staff member"),
  sql: (organizationId: string, employeeId: string): SQL =>
    sql`(SELECT organization_id FROM staff_members WHERE id = ${employeeId} AND organization_id = ${organizationId}
      AND deleted_at IS NULL)`,
});
