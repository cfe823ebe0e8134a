import { breakTypes, lockedDays, photos, roles, shiftBreaks, shiftEvents, shifts, staffMembers, wageRates } from "@db/schema";
import { and, between, desc, eq, inArray, isNull, lte, or } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { type IdempotentRequest, lookupStatement } from "@/data/idempotency";
import { type AtLocation, liveLocation } from "@/data/live-location";
import { type Placeholders, prepared } from "@/data/prepared";
import { costCodeRead } from "@/data/shifts/cost-code-reads.data";
import { customFieldsOf, customFieldsRead } from "@/data/shifts/custom-field-values.data";
import { type Member, openShiftOf } from "@/data/shifts/member-statements.data";
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
  /** The cost code the punch charges, if any. */
  costCodeId?: string;
  /** The instant the punch is about; locked days are read for the local dates it can fall on. */
  around: Date;
  /** A kiosk's photo of the punch (kiosk punches), read with the rest. */
  photoId?: string;
  /** What a caller must pass before anything else is judged (a kiosk's PIN), read in the same batch. */
  gate?: PunchGate;
}

/**
 * Reads a caller judges before the punch is (a kiosk's PIN: its member, stored PIN and failures), joined to the
 * punch's one read batch; `pass` gets their rows, in order, before any other refusal or a replay, and throws the
 * caller's refusal.
 */
export interface PunchGate {
  reads: readonly Statement[];
  pass(rows: unknown[]): Promise<void>;
}

const utcDate = (instant: Date) => instant.toISOString().slice(0, 10);

// The statements of the read, built once per isolate (data/prepared).
const staffMember = prepared((db, p: Member) =>
  db
    .select()
    .from(staffMembers)
    .where(and(inOrganization(staffMembers, p.organizationId), eq(staffMembers.id, p.staffMemberId))),
);
const role = prepared((db, p: Placeholders<{ organizationId: string; roleId: string }>) =>
  db
    .select()
    .from(roles)
    .where(and(inOrganization(roles, p.organizationId), eq(roles.id, p.roleId))),
);
/** A role of the organization by id, or null (a switch that keeps the ending shift's role reads it). */
export const roleOf = async (db: Database, organizationId: string, roleId: string) =>
  (await role(db, { organizationId, roleId }))[0] ?? null;

const openShift = prepared((db, p: Member) => db.select().from(shifts).where(openShiftOf(p)));
const openShiftBreaks = prepared((db, p: Member) =>
  db
    .select()
    .from(shiftBreaks)
    .where(inArray(shiftBreaks.shiftId, db.select({ id: shifts.id }).from(shifts).where(openShiftOf(p))))
    .orderBy(shiftBreaks.startAt),
);
const lastEvent = prepared((db, p: Member) =>
  db
    .select()
    .from(shiftEvents)
    .where(and(eq(shiftEvents.organizationId, p.organizationId), eq(shiftEvents.employeeId, p.staffMemberId)))
    .orderBy(desc(shiftEvents.occurredAt))
    .limit(1),
);
const locationBreakTypes = prepared((db, p: AtLocation) =>
  db
    .select()
    .from(breakTypes)
    .where(and(inOrganization(breakTypes, p.organizationId), eq(breakTypes.locationId, p.locationId))),
);
/** The location's locked days among the dates from `from` to `to` and the open shift's business date. */
const lockedDates = prepared((db, p: Member & AtLocation & Placeholders<{ from: string; to: string }>) =>
  db
    .select({ date: lockedDays.date })
    .from(lockedDays)
    .where(
      and(
        eq(lockedDays.organizationId, p.organizationId),
        eq(lockedDays.locationId, p.locationId),
        or(
          between(lockedDays.date, p.from, p.to),
          inArray(lockedDays.date, db.select({ date: shifts.businessDate }).from(shifts).where(openShiftOf(p))),
        ),
      ),
    ),
);

/** A photo of the organization by id (its location and whether a punch took it already). */
const photoOf = prepared((db, p: Placeholders<{ organizationId: string; photoId: string }>) =>
  db
    .select({ id: photos.id, locationId: photos.locationId, shiftId: photos.shiftId })
    .from(photos)
    .where(and(eq(photos.organizationId, p.organizationId), eq(photos.id, p.photoId))),
);

/** The staff member's live wage rates effective by `to` (the latest local date the punch can fall on): a clock-in resolves its rate with them. */
const wageRatesBy = prepared((db, p: Member & Placeholders<{ to: string }>) =>
  db
    .select({
      id: wageRates.id,
      roleId: wageRates.roleId,
      locationId: wageRates.locationId,
      hourlyRate: wageRates.hourlyRate,
      effectiveFrom: wageRates.effectiveFrom,
    })
    .from(wageRates)
    .where(
      and(
        eq(wageRates.organizationId, p.organizationId),
        eq(wageRates.employeeId, p.staffMemberId),
        isNull(wageRates.deletedAt),
        lte(wageRates.effectiveFrom, p.to),
      ),
    ),
);

/**
 * Everything a clock or break event needs to decide, read in ONE batch (one D1 round trip): the staff member,
 * the location and its break types, the role, the open shift with its breaks, the member's latest event, and
 * the location's locked days near the instant and on the open shift's business date, the organization's custom
 * fields, the Idempotency-Key, and what
 * attendance exceptions are found with (features/attendance: settings, published entries near, the meal rule); and
 * a caller's gate (a kiosk's PIN), judged first.
 */
export async function loadPunchContext(db: Database, scope: PunchScope) {
  const { organizationId, staffMemberId, locationId } = scope;
  const member = { organizationId, staffMemberId };
  const here = { organizationId, locationId };
  const latestDate = addDays(utcDate(scope.around), 1);
  const gateReads = scope.gate?.reads ?? [];
  const [staff, place, roleRows, code, open, breaks, last, types, locked, rates, fields, key, photo, ...rest] = await db.batch([
    staffMember(db, member),
    liveLocation(db, here),
    role(db, { organizationId, roleId: scope.roleId ?? "" }),
    costCodeRead(db, organizationId, scope.costCodeId ?? ""),
    openShift(db, member),
    openShiftBreaks(db, member),
    lastEvent(db, member),
    locationBreakTypes(db, here),
    lockedDates(db, {
      ...member,
      locationId,
      from: utcDate(new Date(scope.around.getTime() - 86_400_000)),
      to: latestDate,
    }),
    wageRatesBy(db, { ...member, to: latestDate }),
    customFieldsRead(db, organizationId),
    lookupStatement(db, scope.idempotency ?? { scope: "", key: "", hash: "" }),
    photoOf(db, { organizationId, photoId: scope.photoId ?? "" }),
    ...attendanceReads(db, { organizationId, staffMemberId, locationId, around: scope.around, kind: scope.kind }),
    ...gateReads,
  ]);
  const attendance = rest.slice(0, rest.length - gateReads.length);
  await scope.gate?.pass(rest.slice(rest.length - gateReads.length));
  if (!staff[0]) throw notFound("Staff member");
  if (!place[0]) throw notFound("Location");
  return {
    staff: staff[0],
    location: place[0],
    role: roleRows[0] ?? null,
    /** False when the punch named a cost code that is no live code of the organization. */
    costCodeFound: scope.costCodeId === undefined || code.length > 0,
    openShift: open[0] ?? null,
    openShiftBreaks: breaks,
    lastEvent: last[0] ?? null,
    breakTypes: types,
    wageRates: rates,
    customFields: customFieldsOf(organizationId, fields),
    lockedDates: new Set(locked.map((l) => l.date)),
    idempotencyRecord: key[0],
    /** The photo the punch names (kiosk punches), if it is the organization's. */
    photo: photo[0] ?? null,
    attendance: attendanceContext(attendance as unknown as AttendanceRows),
  };
}

export type PunchContext = Awaited<ReturnType<typeof loadPunchContext>>;
