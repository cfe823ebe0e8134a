import { breakTypes, lockedDays, shiftBreaks, shifts, staffMembers } from "@db/schema";
import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "@/data/client";
import { type AtLocation, liveLocation } from "@/data/live-location";
import { type Placeholders, prepared } from "@/data/prepared";
import { inOrganization } from "@/data/tenancy";
import { businessDate, offsetMinutesAt } from "@/domain/local-time";
import { minutesWorkedOnBusinessDay } from "@/domain/shift-totals";
import { notFound } from "@/problems/problem";
import { serializeShift } from "@/wire/shift.schemas";
import { toDomainBreak } from "./breaks.data";
import { type Member, openShiftOf } from "./member-statements.data";

/** A business date's shifts can only have started within a day either side of now's UTC date. */
const nearbyUtcDates = (now: Date) => [-1, 0, 1].map((days) => new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10));

type Recent = Member & Placeholders<{ dayBefore: string; utcToday: string; dayAfter: string }>;

const recentShiftsOf = (p: Recent) =>
  and(
    inOrganization(shifts, p.organizationId),
    eq(shifts.employeeId, p.staffMemberId),
    inArray(shifts.businessDate, [p.dayBefore, p.utcToday, p.dayAfter]),
  );

// The statements of the read, built once per isolate (data/prepared).
const staffMember = prepared((db, p: Member) =>
  db
    .select({ id: staffMembers.id })
    .from(staffMembers)
    .where(and(inOrganization(staffMembers, p.organizationId), eq(staffMembers.id, p.staffMemberId))),
);
/** The open shift and the shifts of the nearby business dates. */
const dayShifts = prepared((db, p: Recent) =>
  db
    .select()
    .from(shifts)
    .where(openShiftOf(p))
    .union(db.select().from(shifts).where(recentShiftsOf(p))),
);
const dayShiftBreaks = prepared((db, p: Recent) =>
  db
    .select()
    .from(shiftBreaks)
    .where(
      inArray(
        shiftBreaks.shiftId,
        db
          .select({ id: shifts.id })
          .from(shifts)
          .where(openShiftOf(p))
          .union(db.select({ id: shifts.id }).from(shifts).where(recentShiftsOf(p))),
      ),
    )
    .orderBy(shiftBreaks.startAt),
);
const enabledBreakTypes = prepared((db, p: AtLocation) =>
  db
    .select({ id: breakTypes.id })
    .from(breakTypes)
    .where(and(inOrganization(breakTypes, p.organizationId), eq(breakTypes.locationId, p.locationId), eq(breakTypes.enabled, true))),
);
/** Whether the open shift's business date is locked at its location. */
const openShiftLock = prepared((db, p: Member) =>
  db
    .select({ date: lockedDays.date })
    .from(lockedDays)
    .innerJoin(shifts, and(eq(shifts.locationId, lockedDays.locationId), eq(shifts.businessDate, lockedDays.date)))
    .where(and(eq(lockedDays.organizationId, p.organizationId), openShiftOf(p))),
);

/** The shift-state read: one batch, then the day's totals from the domain. */
export async function loadShiftState(
  db: Database,
  scope: { organizationId: string; staffMemberId: string; locationId: string },
  now = new Date(),
) {
  const { organizationId, staffMemberId, locationId } = scope;
  const member = { organizationId, staffMemberId };
  const [dayBefore = "", utcToday = "", dayAfter = ""] = nearbyUtcDates(now);
  const recent = { ...member, dayBefore, utcToday, dayAfter };
  const [staff, location, shiftRows, breakRows, types, locked] = await db.batch([
    staffMember(db, member),
    liveLocation(db, { organizationId, locationId }),
    dayShifts(db, recent),
    dayShiftBreaks(db, recent),
    enabledBreakTypes(db, { organizationId, locationId }),
    openShiftLock(db, member),
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
    openShift: open ? serializeShift(open, breaksOf(open.id), { locked: locked.length > 0 }) : null,
    availableBreaks: canStartBreak ? types.map((t) => t.id) : [],
  };
}
