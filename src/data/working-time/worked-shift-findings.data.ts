import { locationWorkingTime, shifts, staffMembers } from "@db/schema";
import { and, eq, gte, isNotNull, isNull, lte, ne, sql } from "drizzle-orm";
import { exceptionRow, raising } from "@/data/attendance/raising.data";
import type { Database } from "@/data/client";
import { type Placeholders, prepared } from "@/data/prepared";
import type { AttendanceFinding } from "@/domain/attendance";
import { addDays } from "@/domain/local-time";
import type { Worker } from "@/domain/working-time/checks";
import { LONGEST_REFERENCE_DAYS } from "@/domain/working-time/packs";
import { clockOutWorkingTimeFindings } from "@/domain/working-time/punch-findings";
import { effectiveWorkingTimePack, versionsColumn, type WorkingTimeVersion } from "./location-working-time.data";
import { type ShiftSpanRow, shiftSpan, shiftSpanColumns } from "./work-spans.data";

/*
 * The one pipeline that judges a worked shift by its location's working-time pack when it closes — a phone's or a
 * kiosk's clock-out, a manager's manual shift or edit of one (POST/PATCH /timesheets), the Cron's automatic
 * clock-out: what it reads (statements to append to the write's own read batch) and the attendance findings it makes.
 */

const DAY_MS = 86_400_000;
/** Closed shifts this far either side of the judged one are read: the rest before it, its day and its week. */
export const AROUND_MS = 8 * DAY_MS;

type Member = Placeholders<{ organizationId: string; staffMemberId: string }>;

/** The location's working-time setting with its dated versions (domain/working-time). */
const settingAt = prepared((db, p: Placeholders<{ organizationId: string; locationId: string }>) =>
  db
    .select({
      rulePack: locationWorkingTime.rulePack,
      overrides: locationWorkingTime.overrides,
      schoolTerms: locationWorkingTime.schoolTerms,
      versions: versionsColumn(),
    })
    .from(locationWorkingTime)
    .where(and(eq(locationWorkingTime.organizationId, p.organizationId), eq(locationWorkingTime.locationId, p.locationId))),
);
/** The member's other closed shifts starting in [from, to]: rest, the day's and the week's hours. */
const nearbyShifts = prepared((db, p: Member & Placeholders<{ from: number; to: number; exceptShiftId: string }>) =>
  db
    .select(shiftSpanColumns)
    .from(shifts)
    .where(
      and(
        eq(shifts.employeeId, p.staffMemberId),
        eq(shifts.organizationId, p.organizationId),
        gte(shifts.startAt, p.from),
        lte(shifts.startAt, p.to),
        isNotNull(shifts.endAt),
        isNull(shifts.deletedAt),
        ne(shifts.id, p.exceptShiftId),
      ),
    ),
);
/** The member's minutes worked per business date from `from` (but the judged shift): averages and monthly overtime. */
const workedByDate = prepared((db, p: Member & Placeholders<{ from: string; exceptShiftId: string }>) =>
  db
    .select({
      date: shifts.businessDate,
      minutes: sql<number>`SUM(${shifts.duration} - ${shifts.totalPaidBreaks} - ${shifts.totalUnpaidBreaks})`,
    })
    .from(shifts)
    .where(
      and(
        eq(shifts.employeeId, p.staffMemberId),
        eq(shifts.organizationId, p.organizationId),
        gte(shifts.businessDate, p.from),
        isNotNull(shifts.endAt),
        isNull(shifts.deletedAt),
        ne(shifts.id, p.exceptShiftId),
      ),
    )
    .groupBy(shifts.businessDate),
);
/** The facts of the worker the rules need: birthDate (minors) and the weekly-average opt-out. */
const workerFacts = prepared((db, p: Member) =>
  db
    .select({ birthDate: staffMembers.birthDate, optOut: staffMembers.workingTimeOptOut })
    .from(staffMembers)
    .where(and(eq(staffMembers.organizationId, p.organizationId), eq(staffMembers.id, p.staffMemberId))),
);

export interface JudgedPlace {
  organizationId: string;
  staffMemberId: string;
  locationId: string;
  /** The instant the shift closes (or, for a manual one, ends). */
  around: Date;
  /** The shift judged, when it is stored already (an edit): its stored self is not counted twice. */
  exceptShiftId?: string;
}

/** The first business date whose minutes the averages and monthly caps of a shift closing at `around` read. */
export const workedSince = (around: Date) => addDays(around.toISOString().slice(0, 10), -(LONGEST_REFERENCE_DAYS + 1));

/** The reads of the pipeline, in this order: the setting, the nearby shifts, the minutes by date. */
export function workingTimeReads(db: Database, place: JudgedPlace) {
  const { organizationId, staffMemberId, locationId } = place;
  const time = place.around.getTime();
  const member = { organizationId, staffMemberId };
  const exceptShiftId = place.exceptShiftId ?? "";
  const from = workedSince(place.around);
  return [
    settingAt(db, { organizationId, locationId }),
    nearbyShifts(db, { ...member, from: time - AROUND_MS, to: time + AROUND_MS, exceptShiftId }),
    workedByDate(db, { ...member, from, exceptShiftId }),
  ] as const;
}

/** workingTimeReads and the worker's facts: for a write that has not read the staff member. */
export const workingTimeReadsWithWorker = (db: Database, place: JudgedPlace) =>
  [...workingTimeReads(db, place), workerFacts(db, place)] as const;

export type WorkingTimeSetting = {
  rulePack: string | null;
  overrides: Record<string, unknown> | null;
  schoolTerms: { startDate: string; endDate: string }[];
  versions: WorkingTimeVersion[];
};

/** What the judgement reads, ready for the rules. */
export interface WorkingTimeContext {
  workingTime: WorkingTimeSetting | null;
  nearbyShifts: ReturnType<typeof shiftSpan>[];
  workedByDate: Map<string, number>;
}

/** The rows of workingTimeReads (each read's rows; absent: none) as the context. */
export function workingTimeContext(
  setting: readonly WorkingTimeSetting[] = [],
  nearby: readonly ShiftSpanRow[] = [],
  byDate: readonly { date: string; minutes: number }[] = [],
): WorkingTimeContext {
  return {
    workingTime: setting[0] ?? null,
    nearbyShifts: nearby.map((row) => shiftSpan(row)),
    workedByDate: new Map(byDate.map((row) => [row.date, Number(row.minutes)])),
  };
}

/** The worker as the rules read them, from a staff member's row (none read: an adult without an opt-out). */
export const workerOf = (row: { birthDate: Date | null; optOut?: Worker["optOut"]; workingTimeOptOut?: Worker["optOut"] } | undefined) => ({
  birthDate: row?.birthDate ?? null,
  optOut: row?.optOut ?? row?.workingTimeOptOut ?? null,
});

/** The shift judged: where and when it was worked, and the breaks it closed with. */
export interface JudgedShift {
  id: string;
  employeeId: string;
  locationId: string;
  startAt: Date;
  endAt: Date;
  utcOffset: number;
  businessDate: string;
  breaks: readonly { startAt: Date; endAt: Date | null }[];
}

/**
 * The working-time findings of a closed shift, by its location's pack (the version in effect on its business date):
 * REST_TOO_SHORT, DAILY_MAXIMUM_EXCEEDED, WEEKLY_MAXIMUM_EXCEEDED, BREAK_TOO_SHORT, MINOR_HOURS,
 * WEEKLY_AVERAGE_EXCEEDED, MONTHLY_OVERTIME_CAP_EXCEEDED (domain/working-time/punch-findings). None without a pack.
 */
export function workedShiftFindings(context: WorkingTimeContext, shift: JudgedShift, worker: Worker): AttendanceFinding[] {
  const pack = effectiveWorkingTimePack(context.workingTime, shift.businessDate);
  if (!pack) return [];
  const breaksJson = shift.breaks.map((b) => ({ startAt: b.startAt.getTime(), endAt: b.endAt?.getTime() ?? null }));
  const closing = shiftSpan({ ...shift, breaksJson }, shift.endAt);
  const earlier = context.nearbyShifts.filter((s) => s.id !== shift.id);
  return clockOutWorkingTimeFindings(pack, closing, earlier, worker, context.workingTime?.schoolTerms ?? [], context.workedByDate);
}

/**
 * For a write without a read batch to join (a manual shift, an edit): reads what the pipeline needs and the worker
 * (one round trip) and answers the statements and events that raise the shift's findings in the write's own batch
 * (once per shift and type: an exception already raised stays as it is).
 */
export async function raisingWorkedShiftFindings(
  db: Database,
  shift: JudgedShift & { organizationId: string },
  detectedAt: Date,
  stored: boolean,
) {
  const place = {
    organizationId: shift.organizationId,
    staffMemberId: shift.employeeId,
    locationId: shift.locationId,
    around: shift.endAt,
    ...(stored ? { exceptShiftId: shift.id } : {}),
  };
  const [setting, nearby, byDate, worker] = await db.batch(workingTimeReadsWithWorker(db, place));
  const findings = workedShiftFindings(workingTimeContext(setting, nearby, byDate), shift, workerOf(worker[0]));
  const { organizationId, locationId, employeeId, businessDate } = shift;
  const rows = findings.map((f) =>
    exceptionRow({ organizationId, locationId, employeeId, businessDate, shiftId: shift.id }, f, detectedAt),
  );
  return raising(db, shift.organizationId, rows);
}
