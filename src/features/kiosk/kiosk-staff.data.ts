import { staffMemberPins, staffMembers } from "@db/schema";
import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import type { Database } from "@/data/client";
import { jsonArrayContains } from "@/data/json-list";
import { loadShiftState } from "@/data/shifts/shift-state.data";
import { inOrganization } from "@/data/tenancy";
import { keysetPage, pageResult } from "@/platform/http/pagination";

/**
 * GET /api/kiosk/staff: one page of the location's live, active members with a PIN, then each one's shift state
 * (the time-tracking read, at the device's location), read side by side.
 */
export async function kioskStaffPage(
  c: Context,
  db: Database,
  scope: { organizationId: string; locationId: string },
  query: { limit: number; cursor?: string },
  now = new Date(),
) {
  const page = keysetPage(staffMembers, { ...query, includeDeleted: false });
  const rows = await db
    .select({ id: staffMembers.id, name: staffMembers.name })
    .from(staffMembers)
    .innerJoin(staffMemberPins, eq(staffMemberPins.employeeId, staffMembers.id))
    .where(
      and(
        inOrganization(staffMembers, scope.organizationId),
        eq(staffMembers.active, true),
        jsonArrayContains(staffMembers.locationIds, scope.locationId),
        page.where,
      ),
    )
    .orderBy(page.orderBy)
    .limit(page.limit);
  const members = pageResult(c, rows, query.limit);
  return Promise.all(
    members.map(async (member) => ({
      id: member.id,
      name: member.name,
      shiftState: await loadShiftState(
        db,
        { organizationId: scope.organizationId, staffMemberId: member.id, locationId: scope.locationId },
        now,
      ),
    })),
  );
}
