import { and, eq, isNull, sql } from "drizzle-orm";
import type { Context } from "hono";
import { shiftBreaks, shiftEvents, shifts } from "../../../drizzle/schema";
import { businessDate, offsetMinutesAt } from "../../domain/local-time";
import { closeShift } from "../../domain/shift-totals";
import { unionFlags } from "../../domain/trust";
import { guarded } from "../../lib/db-errors";
import { newId } from "../../lib/ids";
import { badRequest, conflict, invalidField, ProblemError } from "../../lib/problem";
import type { AppRouteHandler } from "../../lib/types";
import { IDEMPOTENCY_HEADER } from "../../middleware/idempotency";
import { loadPunchContext, type PunchContext } from "./punch-context";
import { eventRow, judge, type PunchRequest, refuseLockedDay } from "./punch";
import { fromDomainBreak, toDomainBreak } from "./shift-breaks";
import { serializeShift, type ShiftBreakRow, type ShiftRow } from "./shift.schemas";
import { loadShiftState } from "./shift-state";
import type * as routes from "./time-tracking.routes";
import type { PunchFields } from "./time-tracking.schemas";

const noOpenShift = () => conflict("NO_OPEN_SHIFT", "The staff member has no open shift at this location.");
const shiftAlreadyOpen = () => conflict("SHIFT_ALREADY_OPEN", "The staff member already has an open shift.");
const breakAlreadyOpen = () => conflict("BREAK_ALREADY_OPEN", "A break is already open on this shift.");
const noOpenBreak = () => conflict("NO_OPEN_BREAK", "No break is open on this shift.");

/** `request.cf` knows roughly where the request entered Cloudflare (absent locally). */
const cfLocation = (c: Context) => {
  const cf = c.req.raw.cf as { latitude?: string; longitude?: string } | undefined;
  return cf ? { latitude: cf.latitude, longitude: cf.longitude } : null;
};

interface Punch<K extends PunchRequest["kind"]> {
  context: PunchContext;
  request: PunchRequest & { kind: K };
}

async function punch<K extends PunchRequest["kind"]>(
  c: Context,
  kind: K,
  params: { organization_id: string; id: string; location_id: string },
  body: PunchFields & { roleId?: string },
): Promise<Punch<K>> {
  const receivedAt = new Date();
  const context = await loadPunchContext(c.var.db, {
    organizationId: params.organization_id,
    staffMemberId: params.id,
    locationId: params.location_id,
    roleId: body.roleId,
    around: body.occurredAt ? new Date(body.occurredAt) : receivedAt,
  });
  return {
    context,
    request: { kind, body, receivedAt, requestLocation: cfLocation(c), idempotencyKey: c.req.header(IDEMPOTENCY_HEADER) ?? null },
  };
}

/** The open shift this punch is about: it must be at the location in the path, on a day not locked. */
function openShiftHere(context: PunchContext): ShiftRow {
  const shift = context.openShift;
  if (!shift || shift.locationId !== context.location.id) throw noOpenShift();
  refuseLockedDay(context, shift.businessDate);
  return shift;
}

/** A write that only applies while the shift is still open: a concurrent clock-out makes it fail whole. */
const stillOpen = (shiftId: string) => sql`(SELECT id FROM ${shifts} WHERE ${shifts.id} = ${shiftId} AND ${shifts.endAt} IS NULL)`;

export const shiftState: AppRouteHandler<routes.ShiftStateRoute> = async (c) => {
  const { organization_id, id, location_id } = c.req.valid("param");
  return c.json(await loadShiftState(c.var.db, { organizationId: organization_id, staffMemberId: id, locationId: location_id }), 200);
};

export const clockIn: AppRouteHandler<routes.ClockInRoute> = async (c) => {
  const params = c.req.valid("param");
  const body = c.req.valid("json");
  const { context, request } = await punch(c, "clock_in", params, body);
  const { staff, location, role } = context;
  if (!role) throw new ProblemError(404, "ROLE_NOT_FOUND", "No role with that id in this organization.", { errors: [{ path: "roleId", message: "unknown role" }] });
  if (!staff.active) throw badRequest("STAFF_MEMBER_INACTIVE", "The staff member is not active.");
  if (!staff.locationIds.includes(location.id)) {
    throw badRequest("NOT_ASSIGNED_TO_LOCATION", "The staff member is not assigned to this location.");
  }
  if (context.openShift) throw shiftAlreadyOpen();
  const judgement = judge(context, request);
  const utcOffset = body.utcOffset ?? offsetMinutesAt(location.timezone, judgement.at);
  const date = businessDate(judgement.at, utcOffset);
  refuseLockedDay(context, date);
  const now = request.receivedAt;
  const shift: ShiftRow = {
    id: newId(),
    organizationId: location.organizationId,
    employeeId: staff.id,
    locationId: location.id,
    roleId: role.id,
    startAt: judgement.at,
    endAt: null,
    utcOffset,
    businessDate: date,
    hourlyWage: role.hourlyWage ?? staff.hourlyWage ?? 0,
    duration: 0,
    totalPaidBreaks: 0,
    totalUnpaidBreaks: 0,
    payableDuration: 0,
    flags: judgement.flags,
    manualEntry: false,
    active: true,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  const event = eventRow(context, request, judgement, shift.id);
  const db = c.var.db;
  await guarded(db.batch([db.insert(shifts).values(shift), db.insert(shiftEvents).values(event)]), [
    [/UNIQUE constraint failed: shifts\.employee_id/i, shiftAlreadyOpen],
  ]);
  return c.json(serializeShift(shift, [], { events: [event] }), 200);
};

export const breakStart: AppRouteHandler<routes.BreakStartRoute> = async (c) => {
  const body = c.req.valid("json");
  const { context, request } = await punch(c, "break_start", c.req.valid("param"), body);
  const shift = openShiftHere(context);
  if (context.openShiftBreaks.some((b) => b.endAt === null)) throw breakAlreadyOpen();
  const type = context.breakTypes.find((t) => t.id === body.typeId && t.enabled);
  if (!type) throw invalidField("typeId", "not an enabled break type of this location");
  const judgement = judge(context, request);
  const started: ShiftBreakRow = {
    id: newId(),
    organizationId: shift.organizationId,
    shiftId: shift.id,
    typeId: type.id,
    name: type.name,
    paid: type.paid,
    mandatory: type.mandatory,
    frequencyMinutes: type.frequencyMinutes,
    durationInSettingsMinutes: type.durationMinutes,
    startAt: judgement.at,
    endAt: null,
    automatic: false,
  };
  const event = eventRow(context, request, judgement, shift.id, started.id);
  const updated = { ...shift, flags: unionFlags([shift.flags, event.flags]), updatedAt: request.receivedAt };
  const db = c.var.db;
  await guarded(
    db.batch([
      db.insert(shiftBreaks).values({ ...started, shiftId: stillOpen(shift.id) }),
      db.insert(shiftEvents).values(event),
      db.update(shifts).set({ flags: updated.flags, updatedAt: updated.updatedAt }).where(eq(shifts.id, shift.id)),
    ]),
    [
      [/UNIQUE constraint failed: shift_breaks/i, breakAlreadyOpen],
      [/NOT NULL constraint failed: shift_breaks\.shift_id/i, noOpenShift],
    ],
  );
  return c.json(serializeShift(updated, [...context.openShiftBreaks, started], { events: [event] }), 200);
};

export const breakEnd: AppRouteHandler<routes.BreakEndRoute> = async (c) => {
  const { context, request } = await punch(c, "break_end", c.req.valid("param"), c.req.valid("json"));
  const shift = openShiftHere(context);
  const open = context.openShiftBreaks.find((b) => b.endAt === null);
  if (!open) throw noOpenBreak();
  const judgement = judge(context, request);
  const event = eventRow(context, request, judgement, shift.id, open.id);
  const updated = { ...shift, flags: unionFlags([shift.flags, event.flags]), updatedAt: request.receivedAt };
  const db = c.var.db;
  await guarded(
    db.batch([
      db.insert(shiftEvents).values({ ...event, shiftId: stillOpen(shift.id) }),
      db.update(shiftBreaks).set({ endAt: judgement.at }).where(and(eq(shiftBreaks.id, open.id), isNull(shiftBreaks.endAt))),
      db.update(shifts).set({ flags: updated.flags, updatedAt: updated.updatedAt }).where(eq(shifts.id, shift.id)),
    ]),
    [
      [/UNIQUE constraint failed: shift_events/i, noOpenBreak],
      [/NOT NULL constraint failed: shift_events\.shift_id/i, noOpenShift],
    ],
  );
  const breaks = context.openShiftBreaks.map((b) => (b.id === open.id ? { ...b, endAt: judgement.at } : b));
  return c.json(serializeShift(updated, breaks, { events: [event] }), 200);
};

export const clockOut: AppRouteHandler<routes.ClockOutRoute> = async (c) => {
  const { context, request } = await punch(c, "clock_out", c.req.valid("param"), c.req.valid("json"));
  const shift = openShiftHere(context);
  const judgement = judge(context, request);
  const at = judgement.at;
  const closed = closeShift({
    start: shift.startAt,
    end: at,
    breaks: context.openShiftBreaks.map(toDomainBreak),
    breakTypes: context.breakTypes,
  });
  const open = context.openShiftBreaks.find((b) => b.endAt === null);
  const events = [eventRow(context, request, judgement, shift.id)];
  if (open) events.push(eventRow(context, { ...request, kind: "break_end" }, judgement, shift.id, open.id));
  const automatic = closed.breaks
    .filter((b) => b.automatic)
    .map((b) => fromDomainBreak(b, { id: newId(), organizationId: shift.organizationId, shiftId: shift.id }));
  const updated: ShiftRow = {
    ...shift,
    ...closed.totals,
    endAt: at,
    active: false,
    flags: unionFlags([shift.flags, judgement.flags]),
    updatedAt: request.receivedAt,
  };
  const db = c.var.db;
  await guarded(
    db.batch([
      db.insert(shiftEvents).values(events.map((e) => ({ ...e, shiftId: stillOpen(shift.id) }))),
      db.update(shiftBreaks).set({ endAt: at }).where(and(eq(shiftBreaks.shiftId, shift.id), isNull(shiftBreaks.endAt))),
      ...(automatic.length > 0 ? [db.insert(shiftBreaks).values(automatic)] : []),
      db.update(shifts).set(updated).where(and(eq(shifts.id, shift.id), isNull(shifts.endAt))),
    ]),
    [
      [/UNIQUE constraint failed: shift_events/i, noOpenShift],
      [/NOT NULL constraint failed: shift_events\.shift_id/i, noOpenShift],
    ],
  );
  const breaks = [...context.openShiftBreaks.map((b) => (b.endAt ? b : { ...b, endAt: at })), ...automatic].sort(
    (a, b) => a.startAt.getTime() - b.startAt.getTime(),
  );
  return c.json(serializeShift(updated, breaks, { events }), 200);
};
