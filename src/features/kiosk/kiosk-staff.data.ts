import { staffMemberPins, staffMembers } from "@db/schema";
import { and, eq } from "drizzle-orm";
import type { Database } from "@/data/client";
import { jsonArrayContains } from "@/data/json-list";
import { loadShiftState } from "@/data/shifts/shift-state.data";
import { inOrganization } from "@/data/tenancy";
import { keysetPage } from "@/platform/http/pagination";

type KioskScope = { organizationId: string; locationId: string };

/**
 * GET /api/kiosk/staff: one keyset page of the location's live, active members with a PIN, read with its extra row
 * (the handler's `pageResult` trims it and links the next page).
 */
export function kioskStaffPage(db: Database, scope: KioskScope, query: { limit: number; cursor?: string }) {
  const page = keysetPage(staffMembers, { ...query, includeDeleted: false });
  return db
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
}

/** Each member of a kiosk's page with their shift state (the time-tracking read, at the device's location), read side by side. */
export function withShiftStates(db: Database, scope: KioskScope, members: { id: string; name: string }[], now = new Date()) {
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
