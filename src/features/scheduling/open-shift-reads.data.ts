import { openShiftPreferences, openShifts, roles, staffMembers } from "@db/schema";
import { and, count, eq, inArray, isNull, type SQL } from "drizzle-orm";
import type { Database } from "@/data/client";
import { inJsonList } from "@/data/json-list";
import { inOrganization } from "@/data/tenancy";
import { readPage } from "@/platform/crud/tenant-queries";
import { notFound } from "@/problems/problem";
import {
  type OpenShiftListInput,
  type OpenShiftRow,
  type PreferenceRow,
  type PreferenceWithWorker,
  serializeOpenShift,
  serializePreference,
} from "./open-shifts.schemas";
import type { LocationRow, ScheduleScope } from "./schedule-access.guards";
import { startsWithin } from "./schedule-range.schemas";

/** The open shifts a caller may see: a staff member acting as themself sees published ones only. */
const visibleTo = (scope: ScheduleScope): SQL | undefined => (scope.ownStaffMemberId ? eq(openShifts.isDraft, false) : undefined);

/** One open shift of the scope's location (404 otherwise), as stored. */
export async function findOpenShift(db: Database, scope: ScheduleScope, id: string): Promise<OpenShiftRow> {
  const [row] = await db
    .select()
    .from(openShifts)
    .where(
      and(
        inOrganization(openShifts, scope.organizationId),
        eq(openShifts.locationId, scope.locationId),
        eq(openShifts.id, id),
        visibleTo(scope),
      ),
    );
  if (!row) throw notFound("Open shift");
  return row;
}

/** The preferences of these open shifts with their workers' external ids; a caller acting as themself sees only theirs. */
const preferencesOf = (db: Database, scope: ScheduleScope, shiftIds: readonly string[]) =>
  db
    .select({ preference: openShiftPreferences, workerExternalId: staffMembers.externalId })
    .from(openShiftPreferences)
    .innerJoin(staffMembers, eq(staffMembers.id, openShiftPreferences.workerId))
    .where(
      and(
        inJsonList(openShiftPreferences.openShiftId, shiftIds),
        isNull(openShiftPreferences.deletedAt),
        scope.ownStaffMemberId ? eq(openShiftPreferences.workerId, scope.ownStaffMemberId) : undefined,
      ),
    )
    .orderBy(openShiftPreferences.id);

/** Approved places per open shift, counted over every worker whoever reads. */
const approvedPlacesOf = (db: Database, shiftIds: readonly string[]) =>
  db
    .select({ openShiftId: openShiftPreferences.openShiftId, approved: count() })
    .from(openShiftPreferences)
    .where(
      and(
        inJsonList(openShiftPreferences.openShiftId, shiftIds),
        eq(openShiftPreferences.status, "APPROVED"),
        isNull(openShiftPreferences.deletedAt),
      ),
    )
    .groupBy(openShiftPreferences.openShiftId);

const roleNamesOf = (db: Database, organizationId: string, roleIds: readonly string[]) =>
  db
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .where(and(eq(roles.organizationId, organizationId), inJsonList(roles.id, roleIds)));

/** Open shifts as the wire shows them, their preferences and role names read in one batch. */
export async function viewsOf(db: Database, scope: ScheduleScope, location: { externalId: string | null }, shifts: OpenShiftRow[]) {
  if (shifts.length === 0) return [];
  const shiftIds = shifts.map((s) => s.id);
  const [preferences, roleNames, approved] = await db.batch([
    preferencesOf(db, scope, shiftIds),
    roleNamesOf(db, scope.organizationId, [...new Set(shifts.map((s) => s.roleId))]),
    approvedPlacesOf(db, shiftIds),
  ]);
  const approvedByShift = new Map(approved.map((a) => [a.openShiftId, a.approved]));
  const byShift = new Map<string, PreferenceWithWorker[]>();
  for (const p of preferences) byShift.set(p.preference.openShiftId, [...(byShift.get(p.preference.openShiftId) ?? []), p]);
  const names = new Map(roleNames.map((r) => [r.id, r.name]));
  return shifts.map((shift) =>
    serializeOpenShift({
      shift,
      tenantId: scope.principal.partnerId,
      roleName: names.get(shift.roleId) ?? "",
      locationExternalId: location.externalId,
      preferences: byShift.get(shift.id) ?? [],
      approvedPlaces: approvedByShift.get(shift.id) ?? 0,
    }),
  );
}

export async function viewOf(db: Database, scope: ScheduleScope, location: { externalId: string | null }, shift: OpenShiftRow) {
  const [view] = await viewsOf(db, scope, location, [shift]);
  return view!;
}

/**
 * GET /open-shifts (operation 10): a keyset page of the location's open shifts starting in the range, read with its
 * extra row (the handler's `pageResult` trims it and links the next page).
 */
export function listOpenShifts(db: Database, scope: ScheduleScope, location: LocationRow, query: OpenShiftListInput) {
  return readPage(
    db,
    openShifts,
    scope.organizationId,
    query,
    eq(openShifts.locationId, location.id),
    startsWithin(openShifts.startAt, query, location.timezone),
    visibleTo(scope),
  );
}

/** Preferences as the API answers them: one read of their workers' externalIds, however many there are. */
export async function preferenceWires(db: Database, scope: ScheduleScope, rows: readonly PreferenceRow[]) {
  const workerIds = [...new Set(rows.map((row) => row.workerId))];
  const workers = workerIds.length
    ? await db
        .select({ id: staffMembers.id, externalId: staffMembers.externalId })
        .from(staffMembers)
        .where(and(eq(staffMembers.organizationId, scope.organizationId), inArray(staffMembers.id, workerIds)))
    : [];
  const externalIds = new Map(workers.map((worker) => [worker.id, worker.externalId]));
  return rows.map((row) => serializePreference({ preference: row, workerExternalId: externalIds.get(row.workerId) ?? null }));
}

export const preferenceWire = async (db: Database, scope: ScheduleScope, row: PreferenceRow) =>
  (await preferenceWires(db, scope, [row]))[0]!;
