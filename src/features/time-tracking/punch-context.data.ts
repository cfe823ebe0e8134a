import { breakTypes, locations, lockedDays, roles, shiftBreaks, shiftEvents, shifts, staffMembers } from "@db/schema";
import { and, between, desc, eq, inArray, isNull, or } from "drizzle-orm";
import type { Database } from "@/data/client";
import { type IdempotentRequest, lookupStatement } from "@/data/idempotency";
import { inOrganization } from "@/data/tenancy";
import type { PunchKind } from "@/domain/geofence";
import { addDays } from "@/domain/local-time";
import { type AttendanceRows, attendanceContext, attendanceReads } from "@/features/attendance/punch-attendance.data";
import { notFound } from "@/problems/problem";

interface PunchScope {
  kind: PunchKind;
  /** The request's Idempotency-Key, looked up in the same batch (see punch-idempotency.ts). */
  idempotency?: IdempotentRequest;
  organizationId: string;
  staffMemberId: string;
  locationId: string;
  roleId?: string;
  /** The instant the punch is about; locked days are read for the local dates it can fall on. */
  around: Date;
}

const utcDate = (instant: Date) => instant.toISOString().slice(0, 10);

/**
 * Everything a clock or break event needs to decide, read in ONE batch (one D1 round trip): the staff member,
 * the location and its break types, the role, the open shift with its breaks, the member's latest event, and
 * the location's locked days near the instant and on the open shift's business date, the Idempotency-Key, and what
 * attendance exceptions are found with (features/attendance: settings, published entries near, the meal rule).
 */
export async function loadPunchContext(db: Database, scope: PunchScope) {
  const { organizationId, staffMemberId, locationId } = scope;
  const openShiftOf = and(inOrganization(shifts, organizationId), eq(shifts.employeeId, staffMemberId), isNull(shifts.endAt));
  const lockableDates = or(
    between(lockedDays.date, utcDate(new Date(scope.around.getTime() - 86_400_000)), addDays(utcDate(scope.around), 1)),
    inArray(lockedDays.date, db.select({ date: shifts.businessDate }).from(shifts).where(openShiftOf)),
  );
  const [staff, location, role, openShift, openShiftBreaks, lastEvent, locationBreakTypes, locked, key, ...attendance] = await db.batch([
    db
      .select()
      .from(staffMembers)
      .where(and(inOrganization(staffMembers, organizationId), eq(staffMembers.id, staffMemberId))),
    db
      .select()
      .from(locations)
      .where(and(inOrganization(locations, organizationId), eq(locations.id, locationId))),
    db
      .select()
      .from(roles)
      .where(and(inOrganization(roles, organizationId), eq(roles.id, scope.roleId ?? ""))),
    db.select().from(shifts).where(openShiftOf),
    db
      .select()
      .from(shiftBreaks)
      .where(inArray(shiftBreaks.shiftId, db.select({ id: shifts.id }).from(shifts).where(openShiftOf)))
      .orderBy(shiftBreaks.startAt),
    db
      .select()
      .from(shiftEvents)
      .where(and(eq(shiftEvents.organizationId, organizationId), eq(shiftEvents.employeeId, staffMemberId)))
      .orderBy(desc(shiftEvents.occurredAt))
      .limit(1),
    db
      .select()
      .from(breakTypes)
      .where(and(inOrganization(breakTypes, organizationId), eq(breakTypes.locationId, locationId))),
    db
      .select({ date: lockedDays.date })
      .from(lockedDays)
      .where(and(eq(lockedDays.organizationId, organizationId), eq(lockedDays.locationId, locationId), lockableDates)),
    lookupStatement(db, scope.idempotency ?? { scope: "", key: "", hash: "" }),
    ...attendanceReads(db, { organizationId, staffMemberId, locationId, around: scope.around, kind: scope.kind }),
  ]);
  if (!staff[0]) throw notFound("Staff member");
  if (!location[0]) throw notFound("Location");
  return {
    staff: staff[0],
    location: location[0],
    role: role[0] ?? null,
    openShift: openShift[0] ?? null,
    openShiftBreaks,
    lastEvent: lastEvent[0] ?? null,
    breakTypes: locationBreakTypes,
    lockedDates: new Set(locked.map((l) => l.date)),
    idempotencyRecord: key[0],
    attendance: attendanceContext(attendance as AttendanceRows),
  };
}

export type PunchContext = Awaited<ReturnType<typeof loadPunchContext>>;
