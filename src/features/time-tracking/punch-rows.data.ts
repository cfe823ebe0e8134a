import type { breakTypes } from "@db/schema";
import { newId } from "@/data/ids";
import { fromDomainBreak, toDomainBreak } from "@/data/shifts/breaks.data";
import { businessDate, offsetMinutesAt } from "@/domain/local-time";
import type { PunchOrigin } from "@/domain/punch-source";
import { breakSettingsOf, closeBreaks, closeShift, mandatoryBreaksNotTaken } from "@/domain/shift-totals";
import { shiftPay } from "@/domain/shift-wage";
import { type TrustFlag, unionFlags } from "@/domain/trust";
import { resolveWage } from "@/domain/wage-rate";
import type { ShiftBreakRow, ShiftRow } from "@/wire/shift.schemas";
import type { PunchContext } from "./punch-context.data";
import type { Judgement } from "./punch-decisions";

type BreakTypeRow = typeof breakTypes.$inferSelect;
type Role = NonNullable<PunchContext["role"]>;

/**
 * The shift's next updated_at: the punch's receipt, but always later than the version it read, so the version
 * guard of a concurrent punch (punch-writes' `unchangedSince`) can never mistake this write for no change.
 */
const nextVersion = (shift: ShiftRow, receivedAt: Date) => new Date(Math.max(receivedAt.getTime(), shift.updatedAt.getTime() + 1));

/**
 * The shift a clock-in opens: the brief's state table (open, zero totals, no breaks), its wage from shiftPay with the
 * staff member's wage rate resolved on its business date (domain/wage-rate), kept as wageRateId.
 */
export function openShiftRow(
  context: PunchContext,
  role: Role,
  judgement: Judgement,
  input: { utcOffset?: number; receivedAt: Date; costCodeId?: string; customFields?: Record<string, string>; origin: PunchOrigin },
): ShiftRow {
  const { staff, location } = context;
  const utcOffset = input.utcOffset ?? offsetMinutesAt(location.timezone, judgement.at);
  const date = businessDate(judgement.at, utcOffset);
  const resolved = resolveWage(context.wageRates, { roleId: role.id, locationId: location.id, date }, role, staff);
  return {
    id: newId(),
    organizationId: location.organizationId,
    employeeId: staff.id,
    locationId: location.id,
    roleId: role.id,
    startAt: judgement.at,
    endAt: null,
    utcOffset,
    businessDate: date,
    ...shiftPay(role, staff, undefined, resolved),
    duration: 0,
    totalPaidBreaks: 0,
    totalUnpaidBreaks: 0,
    payableDuration: 0,
    flags: judgement.flags,
    costCodeId: input.costCodeId ?? null,
    customFields: input.customFields ?? {},
    manualEntry: false,
    clockInSource: input.origin.source,
    clockInDeviceId: input.origin.deviceId,
    clockOutSource: null,
    clockOutDeviceId: null,
    breaksJson: [], // filled by the shift_breaks triggers
    active: true,
    createdAt: input.receivedAt,
    updatedAt: input.receivedAt,
    deletedAt: null,
  };
}

/** A break of `type` on the shift, open from `at`. */
export const startedBreakRow = (shift: ShiftRow, type: BreakTypeRow, at: Date): ShiftBreakRow => ({
  id: newId(),
  organizationId: shift.organizationId,
  shiftId: shift.id,
  ...breakSettingsOf(type),
  startAt: at,
  endAt: null,
  automatic: false,
});

/** The open break, ended at `at` as closeBreaks ends it (never before it began). */
export function endedBreakRow(open: ShiftBreakRow, at: Date): ShiftBreakRow {
  const [ended] = closeBreaks([toDomainBreak(open)], at);
  return { ...open, endAt: ended?.endTime ?? at };
}

/** The only columns of the shift a break start or end changes: the flags, with the event's, and the version. */
export const touchedShift = (shift: ShiftRow, flags: readonly TrustFlag[], receivedAt: Date) => ({
  flags: unionFlags([shift.flags, flags]),
  updatedAt: nextVersion(shift, receivedAt),
});

/**
 * Clock-out, by the domain's closeShift: the open break ends as closeBreaks ends it (never before it began), the
 * totals are computed; a break not taken is never added. Answers the columns to write, the break rows to answer
 * with, the break that was open (now ended) and the mandatory break types not taken (MISSED_MEAL_BREAK).
 */
export function closedShift(
  shift: ShiftRow,
  breaks: readonly ShiftBreakRow[],
  types: readonly BreakTypeRow[],
  judgement: Pick<Judgement, "at" | "flags">,
  receivedAt: Date,
  origin: PunchOrigin,
) {
  const domainBreaks = breaks.map(toDomainBreak);
  const closed = closeShift({ start: shift.startAt, end: judgement.at, breaks: domainBreaks });
  const ids = (b: (typeof closed.breaks)[number]) => ({ id: b.id ?? newId(), organizationId: shift.organizationId, shiftId: shift.id });
  const rows = closed.breaks.map((b) => fromDomainBreak(b, ids(b)));
  const wasOpen = breaks.find((b) => b.endAt === null);
  return {
    changes: {
      ...closed.totals,
      endAt: judgement.at,
      active: false,
      clockOutSource: origin.source,
      clockOutDeviceId: origin.deviceId,
      ...touchedShift(shift, judgement.flags, receivedAt),
    },
    breaks: rows,
    ended: wasOpen ? rows.find((b) => b.id === wasOpen.id) : undefined,
    notTaken: mandatoryBreaksNotTaken({ start: shift.startAt, end: judgement.at, breaks: domainBreaks, breakTypes: types }),
  };
}

export type ClosedShift = ReturnType<typeof closedShift>;
