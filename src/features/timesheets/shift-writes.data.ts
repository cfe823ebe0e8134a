import { locations, lockedDays, roles, shiftBreaks, shifts, staffMembers } from "@db/schema";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { newId } from "@/data/ids";
import { fromDomainBreak, toDomainBreak } from "@/data/shifts/breaks.data";
import { checkedValues, customFieldsAsRead, customFieldsOf, customFieldsRead } from "@/data/shifts/custom-field-values.data";
import { insertBreakStatements } from "@/data/shifts/shift-rows.data";
import {
  chargedRole,
  costCodeAssigned,
  dayLocked,
  noShiftOverlap,
  shiftDayUnlocked,
  shiftGuardProblems,
  shiftPayUnfrozen,
} from "@/data/shifts/shifts.guards";
import { inOrganization, softDeleted } from "@/data/tenancy";
import { ratesEffectiveBy } from "@/data/wage-rates.data";
import { raisingWorkedShiftFindings } from "@/data/working-time/worked-shift-findings.data";
import { guardedBatch } from "@/data/write/guarded-batch";
import { addDays } from "@/domain/local-time";
import { workedDates } from "@/domain/pay-period-freeze";
import { originOf } from "@/domain/punch-source";
import { planShift, type ShiftPlan } from "@/domain/shift-plan";
import type { ShiftBreak } from "@/domain/shift-totals";
import { isSalaried, shiftPay } from "@/domain/shift-wage";
import { resolveWage } from "@/domain/wage-rate";
import { type OffsetRule, offsetUnder, readWallClock } from "@/domain/zoned-wall-clock";
import { type IfMatch, nextVersionAfter, requireVersion } from "@/platform/http/conditional";
import { invalidField, validationFailed } from "@/problems/problem";
import { type ShiftBreakRow, type ShiftRow, type ShiftWire, serializeShift } from "@/wire/shift.schemas";
import { auditAfter, auditBefore, auditDeletes, auditEntry, auditedVersionRead } from "./shift-audit.data";
import { assertCostCode, loadReferences, loadShift, manualBreaks } from "./shift-references.data";
import type { TimesheetScope } from "./timesheet-scope.guards";
import type { ManualShiftInput, ShiftPatchInput } from "./timesheets.schemas";

type Planned = Extract<ShiftPlan, { ok: true }>;

const salariedWage = () => invalidField("hourlyWage", "a salaried staff member's shift is not paid by the hour: it takes no hourlyWage");

function planned(plan: ShiftPlan): Planned {
  if (plan.ok) return plan;
  throw validationFailed(plan.errors);
}

const breakRowsOf = (breaks: readonly ShiftBreak[], shift: ShiftRow): ShiftBreakRow[] =>
  breaks.map((b) => fromDomainBreak(b, { id: newId(), organizationId: shift.organizationId, shiftId: shift.id }));

/** POST /timesheets: a closed shift entered by a manager, totals from the same closeShift as clock-out. */
export async function createManualShift(db: Database, scope: TimesheetScope, body: ManualShiftInput): Promise<ShiftWire> {
  const { organizationId } = scope;
  // The wall clock's date + 1 bounds the business date (it is the start's local date, in any offset).
  const refs = await loadReferences(db, organizationId, body, addDays(body.startTime.slice(0, 10), 1));
  const fields = await checkedValues(refs.customFields, {}, body.customFields);
  if (body.hourlyWage !== undefined && isSalaried(refs.staff)) throw salariedWage();
  const rule: OffsetRule = body.utcOffset !== undefined ? { utcOffset: body.utcOffset } : { timeZone: refs.location.timezone };
  const start = readWallClock(new Date(body.startTime), rule);
  const end = readWallClock(new Date(body.endTime), rule);
  const utcOffset = offsetUnder(start, rule);
  const breaks = manualBreaks(body.breaks, rule, refs.breakTypes);
  const plan = planned(planShift({ start, end, utcOffset, breaks }));
  const now = await organizationNow({ db, ...scope });
  const origin = originOf(scope.principal, "edit");
  const shift: ShiftRow = {
    id: newId(now.getTime()),
    organizationId,
    employeeId: refs.staff.id,
    locationId: refs.location.id,
    roleId: refs.role.id,
    startAt: start,
    endAt: end,
    utcOffset,
    businessDate: plan.businessDate,
    ...shiftPay(
      refs.role,
      refs.staff,
      body.hourlyWage,
      resolveWage(refs.wageRates, { roleId: refs.role.id, locationId: refs.location.id, date: plan.businessDate }, refs.role, refs.staff),
    ),
    ...plan.totals,
    flags: [],
    manualEntry: true,
    clockInSource: origin.source,
    clockInDeviceId: null,
    clockOutSource: origin.source,
    clockOutDeviceId: null,
    costCodeId: body.costCodeId ?? null,
    customFields: fields.values,
    breaksJson: [], // filled by the shift_breaks triggers
    active: false,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  const breakRows = breakRowsOf(plan.breaks, shift);
  // The working-time rules of the location's pack, judged as a clock-out judges them (in this write's batch).
  const raised = await raisingWorkedShiftFindings(db, { ...shift, endAt: end, breaks: breakRows }, now, false);
  const audit = auditEntry({ organizationId, shiftId: shift.id, action: "create", principal: scope.principal, at: now });
  const worked = { date: shift.businessDate, through: workedDates(start, end, utcOffset).through };
  const days = [{ locationId: shift.locationId, ...worked }];
  const answer = serializeShift(shift, breakRows);
  const guardedShift = {
    ...shift,
    organizationId: shiftDayUnlocked.sql(organizationId, days),
    employeeId: noShiftOverlap.sql({ organizationId, employeeId: shift.employeeId, shiftId: shift.id, start, end }),
    locationId: shiftPayUnfrozen.sql(shift.locationId, organizationId, shift.employeeId, [worked]),
    roleId: chargedRole(shift),
    customFields: fields.column,
  };
  await guardedBatch(
    { db, principal: scope.principal, organizationId: scope.organizationId },
    [db.insert(shifts).values(guardedShift), ...insertBreakStatements(db, breakRows), auditAfter(db, audit), ...raised.statements],
    [...shiftGuardProblems({ db, organizationId, days }), costCodeAssigned, customFieldsAsRead],
    { events: [{ type: "shift.created", organizationId, occurredAt: now, data: answer }, ...raised.events] },
  );
  return answer;
}

/** A new role of a shift, its staff member's wage, and their wage rates effective by `date`, in one read. */
async function roleAndStaff(db: Database, organizationId: string, roleId: string, staffId: string, date: string) {
  const [role, staff, rates] = await db.batch([
    db
      .select()
      .from(roles)
      .where(and(inOrganization(roles, organizationId), eq(roles.id, roleId))),
    db
      .select({ hourlyWage: staffMembers.hourlyWage, wageType: staffMembers.wageType })
      .from(staffMembers)
      .where(eq(staffMembers.id, staffId)),
    ratesEffectiveBy(db, organizationId, staffId, date),
  ]);
  if (!role[0]) throw invalidField("roleId", "no role with that id in this organization");
  return { role: role[0], staff: staff[0], rates };
}

/**
 * PATCH /timesheets/{id}. Times are read like the wire shows them: with the body's utcOffset, else the shift's.
 * A closed shift's breaks and totals are recomputed by closeShift; an open one stays open unless endTime closes it.
 */
export async function patchShift(
  db: Database,
  scope: TimesheetScope,
  id: string,
  body: ShiftPatchInput,
  ifMatch: IfMatch,
): Promise<ShiftWire> {
  const { organizationId } = scope;
  const current = await loadShift(db, scope, id);
  const was = current.shift;
  requireVersion(ifMatch, was);
  if (body.costCodeId) await assertCostCode(db, organizationId, body.costCodeId);
  const fields = body.customFields
    ? await checkedValues(customFieldsOf(organizationId, await customFieldsRead(db, organizationId)), was.customFields, body.customFields)
    : { values: was.customFields, column: was.customFields };
  const utcOffset = body.utcOffset ?? was.utcOffset;
  const rule = { utcOffset };
  const start = body.startTime ? readWallClock(new Date(body.startTime), rule) : was.startAt;
  const end = body.endTime ? readWallClock(new Date(body.endTime), rule) : was.endAt;
  if (body.breaks && !end) throw invalidField("breaks", "breaks can be replaced on a closed shift only: send endTime too");
  const breaks = body.breaks ? manualBreaks(body.breaks, rule, current.breakTypes) : current.breaks.map(toDomainBreak);
  const plan = planned(planShift({ start, end, utcOffset, breaks }));
  // A new role brings its wage (the staff member's wage rate for it on the shift's date, else the role's, else
  // theirs: domain/wage-rate), and the staff member's wage type as it is now; otherwise the shift keeps both.
  let pay = {
    hourlyWage: body.hourlyWage ?? was.hourlyWage,
    salaried: was.salaried,
    wageRateId: body.hourlyWage === undefined ? was.wageRateId : null,
    wageSource: body.hourlyWage === undefined ? was.wageSource : ("SET_BY_HAND" as const),
  };
  if (body.roleId && body.roleId !== was.roleId) {
    const { role, staff, rates } = await roleAndStaff(db, organizationId, body.roleId, was.employeeId, plan.businessDate);
    const on = { roleId: role.id, locationId: was.locationId, date: plan.businessDate };
    pay = shiftPay(role, staff, body.hourlyWage, resolveWage(rates, on, role, staff));
  }
  if (pay.salaried && body.hourlyWage !== undefined) throw salariedWage();
  const now = nextVersionAfter(was, await organizationNow({ db, ...scope }));
  // An edited start or end is now the editor's: a manager's (MANUAL) or the integrator's (API).
  const editor = originOf(scope.principal, "edit");
  const changes = {
    ...(body.startTime ? { clockInSource: editor.source, clockInDeviceId: null } : {}),
    ...(body.endTime ? { clockOutSource: editor.source, clockOutDeviceId: null } : {}),
    roleId: body.roleId ?? was.roleId,
    costCodeId: body.costCodeId === undefined ? was.costCodeId : body.costCodeId,
    customFields: fields.values,
    startAt: start,
    endAt: end,
    utcOffset,
    businessDate: plan.businessDate,
    ...pay,
    ...plan.totals,
    active: end === null,
    updatedAt: now,
  };
  const updated: ShiftRow = { ...was, ...changes };
  const audit = auditEntry({ organizationId, shiftId: id, action: "update", principal: scope.principal, at: now });
  // Every minute the edit moves: the shift's old dates and its new ones (a shift crossing midnight, both of its dates).
  const worked = [
    { date: was.businessDate, through: workedDates(was.startAt, was.endAt, was.utcOffset).through },
    { date: plan.businessDate, through: workedDates(start, end, utcOffset).through },
  ];
  const days = worked.map((dates) => ({ locationId: was.locationId, ...dates }));
  // An open shift keeps its break rows as they are; a closed one gets the recomputed set.
  const breakRows = end ? breakRowsOf(plan.breaks, updated) : current.breaks;
  const answer = serializeShift(updated, breakRows);
  const replaceBreaks = end ? [db.delete(shiftBreaks).where(eq(shiftBreaks.shiftId, id)), ...insertBreakStatements(db, breakRows)] : [];
  // A worked shift whose times, breaks or UTC offset (its local dates) change is judged again by the location's
  // working-time pack, in this batch.
  const timesChanged =
    body.startTime !== undefined || body.endTime !== undefined || body.breaks !== undefined || (body.utcOffset ?? null) !== null;
  const raised =
    end && timesChanged
      ? await raisingWorkedShiftFindings(db, { ...updated, endAt: end, breaks: breakRows }, now, true)
      : { statements: [], events: [] };
  await guardedBatch(
    { db, principal: scope.principal, organizationId: scope.organizationId },
    [
      auditBefore(db, audit, was.updatedAt),
      db
        .update(shifts)
        .set({
          ...changes,
          organizationId: shiftDayUnlocked.sql(organizationId, days),
          employeeId: noShiftOverlap.sql({ organizationId, employeeId: was.employeeId, shiftId: id, start, end }),
          locationId: shiftPayUnfrozen.sql(was.locationId, organizationId, was.employeeId, worked),
          // A code the edit names must be the worker's now; one the shift already had stays as it is.
          roleId: chargedRole({ organizationId, employeeId: was.employeeId, roleId: changes.roleId, costCodeId: body.costCodeId ?? null }),
          customFields: fields.column,
        })
        .where(eq(shifts.id, id)),
      ...replaceBreaks,
      auditAfter(db, audit),
      ...raised.statements,
    ],
    [...shiftGuardProblems({ db, organizationId, days }), costCodeAssigned, customFieldsAsRead, auditedVersionRead],
    { events: [{ type: "shift.updated", organizationId, occurredAt: now, data: answer }, ...raised.events] },
  );
  return answer;
}

/** DELETE /timesheets/{id}: a soft delete, refused on a locked day. */
export async function deleteShift(db: Database, scope: TimesheetScope, id: string, ifMatch: IfMatch): Promise<ShiftWire> {
  const { organizationId } = scope;
  const current = await loadShift(db, scope, id);
  const was = current.shift;
  requireVersion(ifMatch, was);
  const now = nextVersionAfter(was, await organizationNow({ db, ...scope }));
  const audit = auditEntry({ organizationId, shiftId: id, action: "delete", principal: scope.principal, at: now });
  const answer = serializeShift({ ...was, ...softDeleted(now) }, current.breaks);
  const worked = { date: was.businessDate, through: workedDates(was.startAt, was.endAt, was.utcOffset).through };
  const days = [{ locationId: was.locationId, ...worked }];
  await guardedBatch(
    { db, principal: scope.principal, organizationId: scope.organizationId },
    [
      auditBefore(db, audit, was.updatedAt),
      db
        .update(shifts)
        .set({
          ...softDeleted(now),
          organizationId: shiftDayUnlocked.sql(organizationId, days),
          locationId: shiftPayUnfrozen.sql(was.locationId, organizationId, was.employeeId, [worked]),
        })
        .where(eq(shifts.id, id)),
    ],
    [...shiftGuardProblems({ db, organizationId, days }), auditedVersionRead],
    { events: [{ type: "shift.deleted", organizationId, occurredAt: now, data: answer }] },
  );
  return answer;
}

/** The local date of a shift row's last minute (its start's date while it is open), in SQL over its own columns. */
const lastWorkedDate = sql`max(shifts.business_date,
  coalesce(date((shifts.end_at + shifts.utc_offset * 60000 - 60000) / 1000, 'unixepoch'), shifts.business_date))`;

/** DELETE /timesheets?date&locationId: every live shift of that business date there, in one atomic batch. */
export async function deleteShiftsOfDay(db: Database, scope: TimesheetScope, day: { date: string; locationId: string }) {
  const { organizationId } = scope;
  const [location, lock] = await db.batch([
    db
      .select({ id: locations.id })
      .from(locations)
      .where(and(inOrganization(locations, organizationId), eq(locations.id, day.locationId))),
    db
      .select({ date: lockedDays.date })
      .from(lockedDays)
      .where(and(eq(lockedDays.locationId, day.locationId), eq(lockedDays.date, day.date))),
  ]);
  if (!location[0]) throw invalidField("locationId", "no location with that id in this organization");
  if (lock[0]) throw dayLocked(day.date);
  const now = await organizationNow({ db, ...scope });
  // `+organization_id`: the location's index serves the day (the organization's would read every location's).
  const ofDay = sql`+audited.organization_id = ${organizationId} AND audited.location_id = ${day.locationId}
    AND audited.business_date = ${day.date} AND audited.deleted_at IS NULL`;
  const [, deleted] = await guardedBatch(
    { db, principal: scope.principal, organizationId: scope.organizationId },
    [
      auditDeletes(db, newId(now.getTime()), scope.principal, now, ofDay),
      db
        .update(shifts)
        .set({
          ...softDeleted(now),
          organizationId: shiftDayUnlocked.sql(organizationId, [day]),
          // Each shift's own employee and last minute's date: the day is refused when any of them is frozen.
          locationId: shiftPayUnfrozen.sql(day.locationId, organizationId, sql`shifts.employee_id`, [
            { date: day.date, through: lastWorkedDate },
          ]),
        })
        .where(
          and(
            sql`+${shifts.organizationId} = ${organizationId}`,
            eq(shifts.locationId, day.locationId),
            eq(shifts.businessDate, day.date),
            isNull(shifts.deletedAt),
          ),
        ),
    ],
    // A refusal names a period freezing the day or the next (a shift of the day may end there).
    shiftGuardProblems({ db, organizationId, days: [{ ...day, through: addDays(day.date, 1) }] }),
    {
      events: [
        {
          organizationId,
          occurredAt: now,
          rows: {
            table: shifts,
            where: sql`+${shifts.organizationId} = ${organizationId} AND ${shifts.locationId} = ${day.locationId}
              AND ${shifts.businessDate} = ${day.date} AND ${shifts.deletedAt} = ${now.getTime()}`,
            typeOf: sql`'shift.deleted'`,
          },
        },
      ],
    },
  );
  return { deleted: deleted.meta.changes };
}
