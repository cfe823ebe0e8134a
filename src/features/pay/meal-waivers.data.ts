import { staffMembers } from "@db/schema";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { periodFreezing } from "@/data/closed-periods";
import { rawRun } from "@/data/raw-statement";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { notFound } from "@/problems/problem";
import type { MealWaiverVersion } from "./meal-waivers.schemas";

/** The staff member's waivers, or 404 for one that is not the organization's or is deleted. */
export async function readMealWaivers(db: Database, organizationId: string, employeeId: string): Promise<MealWaiverVersion[]> {
  const [row] = await db
    .select({ waivers: staffMembers.mealWaivers })
    .from(staffMembers)
    .where(and(eq(staffMembers.organizationId, organizationId), eq(staffMembers.id, employeeId), isNull(staffMembers.deletedAt)));
  if (!row) throw notFound("Staff member");
  return row.waivers;
}

/**
 * PUT: one UPDATE of the staff member's meal_waivers, replacing the version of that date, only when it changes
 * something and no closed period froze that date or a later one (the version governs every workday from it on); the
 * event follows the change in the same batch. When nothing changed the reason is read after: 404, 409 or the same.
 */
export async function putMealWaiver(writer: Writer, organizationId: string, employeeId: string, version: MealWaiverVersion) {
  const value = JSON.stringify({ effectiveFrom: version.effectiveFrom, firstMeal: version.firstMeal, secondMeal: version.secondMeal });
  const update = rawRun(
    writer.db,
    sql`UPDATE staff_members SET meal_waivers = (
        SELECT json_group_array(json(v)) FROM (SELECT v FROM (
          SELECT value AS v FROM json_each(staff_members.meal_waivers)
            WHERE json_extract(value, '$.effectiveFrom') <> ${version.effectiveFrom}
          UNION ALL SELECT ${value}) ORDER BY json_extract(v, '$.effectiveFrom')))
      WHERE id = ${employeeId} AND organization_id = ${organizationId} AND deleted_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM json_each(staff_members.meal_waivers) w WHERE w.value = json(${value}))
        AND NOT EXISTS (SELECT 1 FROM pay_periods WHERE organization_id = ${organizationId} AND status = 'CLOSED'
          AND frozen_to >= ${version.effectiveFrom})`,
  );
  const [result] = await guardedBatch(writer, [update], [], {
    events: [{ type: "staff_member.meal_waivers_updated", organizationId, data: { employeeId, ...version }, whenChanged: true }],
  });
  const waivers = await readMealWaivers(writer.db, organizationId, employeeId);
  if (result.changes === 0) {
    const frozen = await periodFreezing(writer.db, organizationId, [{ first: version.effectiveFrom, last: "9999-12-31" }]);
    if (frozen) throw frozen;
  }
  return waivers;
}
