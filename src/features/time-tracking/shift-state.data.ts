import { breakTypes, locations, lockedDays, shiftBreaks, shifts, staffMembers } from "@db/schema";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Database } from "@/data/client";
import { inOrganization } from "@/data/tenancy";
import { businessDate, offsetMinutesAt } from "@/domain/local-time";
import { minutesWorkedOnBusinessDay } from "@/domain/shift-totals";
import { toDomainBreak } from "@/features/shifts/breaks.data";
import { serializeShift } from "@/features/shifts/shifts.schemas";
import { notFound } from "@/problems/problem";

/** A business date's shifts can only have started within a day either side of now's UTC date. */
const nearbyUtcDates = (now: Date) => [-1, 0, 1].map((days) => new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10));

/** The shift-state read: one batch, then the day's totals from the domain. */
export async function loadShiftState(
  db: Database,
  scope: { organizationId: string; staffMemberId: string; locationId: string },
  now = new Date(),
) {
  const { organizationId, staffMemberId, locationId } = scope;
  const openShift = and(inOrganization(shifts, organizationId), eq(shifts.employeeId, staffMemberId), isNull(shifts.endAt));
  const recentShifts = and(
    inOrganization(shifts, organizationId),
    eq(shifts.employeeId, staffMemberId),
    inArray(shifts.businessDate, nearbyUtcDates(now)),
  );
  const [staff, location, shiftRows, breakRows, types, openShiftLock] = await db.batch([
    db
      .select({ id: staffMembers.id })
      .from(staffMembers)
      .where(and(inOrganization(staffMembers, organizationId), eq(staffMembers.id, staffMemberId))),
    db
      .select()
      .from(locations)
      .where(and(inOrganization(locations, organizationId), eq(locations.id, locationId))),
    db.select().from(shifts).where(openShift).union(db.select().from(shifts).where(recentShifts)),
    db
      .select()
      .from(shiftBreaks)
      .where(
        inArray(
          shiftBreaks.shiftId,
          db
            .select({ id: shifts.id })
            .from(shifts)
            .where(openShift)
            .union(db.select({ id: shifts.id }).from(shifts).where(recentShifts)),
        ),
      )
      .orderBy(shiftBreaks.startAt),
    db
      .select({ id: breakTypes.id })
      .from(breakTypes)
      .where(and(inOrganization(breakTypes, organizationId), eq(breakTypes.locationId, locationId), eq(breakTypes.enabled, true))),
    // Whether the open shift's business date is locked at its location.
    db
      .select({ date: lockedDays.date })
      .from(lockedDays)
      .innerJoin(shifts, and(eq(shifts.locationId, lockedDays.locationId), eq(shifts.businessDate, lockedDays.date)))
      .where(and(eq(lockedDays.organizationId, organizationId), openShift)),
  ]);
  if (!staff[0]) throw notFound("Staff member");
  if (!location[0]) throw notFound("Location");
  const breaksOf = (shiftId: string) => breakRows.filter((b) => b.shiftId === shiftId);
  const today = businessDate(now, offsetMinutesAt(location[0].timezone, now));
  const totalShiftTimeToday = minutesWorkedOnBusinessDay({
    date: today,
    now,
    shifts: shiftRows.map((s) => ({ start: s.startAt, end: s.endAt, utcOffset: s.utcOffset, breaks: breaksOf(s.id).map(toDomainBreak) })),
  });
  const open = shiftRows.find((s) => s.endAt === null) ?? null;
  const breakOpen = open ? breaksOf(open.id).some((b) => b.endAt === null) : false;
  const canStartBreak = open !== null && open.locationId === locationId && !breakOpen;
  return {
    totalShiftTimeToday,
    openShift: open ? serializeShift(open, breaksOf(open.id), { locked: openShiftLock.length > 0 }) : null,
    availableBreaks: canStartBreak ? types.map((t) => t.id) : [],
  };
}
