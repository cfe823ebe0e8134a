import { and, eq, isNull, sql } from "drizzle-orm";
import type { Context } from "hono";
import { shiftBreaks, shiftEvents, shifts } from "../../../drizzle/schema";
import { businessDate, offsetMinutesAt } from "../../domain/local-time";
import { closeShift } from "../../domain/shift-totals";
import { unionFlags } from "../../domain/trust";
import { writeAll } from "../../lib/db";
import { guarded } from "../../lib/db-errors";
import { newId } from "../../lib/ids";
import { badRequest, conflict, invalidField, ProblemError } from "../../lib/problem";
import type { AppBindings, AppRouteHandler } from "../../lib/types";
import { loadPunchContext, type PunchContext } from "./punch-context";
import { eventRow, judge, type PunchRequest, refuseLockedDay } from "./punch";
import { fromDomainBreak, toDomainBreak } from "./shift-breaks";
import { concurrentTwin, previousAnswer, recordAnswer } from "./punch-idempotency";
import { serializeShift, type ShiftBreakRow, type ShiftRow, type ShiftWire } from "./shift.schemas";
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
  /** The stored answer when this is a retry of a punch already applied under its Idempotency-Key. */
  replay: ShiftWire | undefined;
}

async function punch<K extends PunchRequest["kind"]>(
  c: Context<AppBindings>,
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
    idempotency: c.var.idempotency,
  });
  return {
    context,
    request: { kind, body, receivedAt, requestLocation: cfLocation(c), idempotencyKey: c.var.idempotency?.key ?? null },
    replay: previousAnswer(c, context),
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
  const { context, request, replay } = await punch(c, "clock_in", params, body);
  if (replay) return c.json(replay, 200);
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
  const answer = serializeShift(shift, [], { events: [event] });
  const db = c.var.db;
  await guarded(
    writeAll(db, [...recordAnswer(c, answer), db.insert(shifts).values(shift), db.insert(shiftEvents).values(event)]),
    [concurrentTwin, [/UNIQUE constraint failed: shifts\.employee_id/i, shiftAlreadyOpen]],
  );
  return c.json(answer, 200);
};

export const breakStart: AppRouteHandler<routes.BreakStartRoute> = async (c) => {
  const body = c.req.valid("json");
  const { context, request, replay } = await punch(c, "break_start", c.req.valid("param"), body);
  if (replay) return c.json(replay, 200);
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
  const answer = serializeShift(updated, [...context.openShiftBreaks, started], { events: [event] });
  const db = c.var.db;
  await guarded(
    writeAll(db, [
      ...recordAnswer(c, answer),
      db.insert(shiftBreaks).values({ ...started, shiftId: stillOpen(shift.id) }),
      db.insert(shiftEvents).values(event),
      db.update(shifts).set({ flags: updated.flags, updatedAt: updated.updatedAt }).where(eq(shifts.id, shift.id)),
    ]),
    [
      concurrentTwin,
      [/UNIQUE constraint failed: shift_breaks/i, breakAlreadyOpen],
      [/NOT NULL constraint failed: shift_breaks\.shift_id/i, noOpenShift],
    ],
  );
  return c.json(answer, 200);
};

export const breakEnd: AppRouteHandler<routes.BreakEndRoute> = async (c) => {
  const { context, request, replay } = await punch(c, "break_end", c.req.valid("param"), c.req.valid("json"));
  if (replay) return c.json(replay, 200);
  const shift = openShiftHere(context);
  const open = context.openShiftBreaks.find((b) => b.endAt === null);
  if (!open) throw noOpenBreak();
  const judgement = judge(context, request);
  const event = eventRow(context, request, judgement, shift.id, open.id);
  const updated = { ...shift, flags: unionFlags([shift.flags, event.flags]), updatedAt: request.receivedAt };
  const breaks = context.openShiftBreaks.map((b) => (b.id === open.id ? { ...b, endAt: judgement.at } : b));
  const answer = serializeShift(updated, breaks, { events: [event] });
  const db = c.var.db;
  await guarded(
    writeAll(db, [
      ...recordAnswer(c, answer),
      db.insert(shiftEvents).values({ ...event, shiftId: stillOpen(shift.id) }),
      db.update(shiftBreaks).set({ endAt: judgement.at }).where(and(eq(shiftBreaks.id, open.id), isNull(shiftBreaks.endAt))),
      db.update(shifts).set({ flags: updated.flags, updatedAt: updated.updatedAt }).where(eq(shifts.id, shift.id)),
    ]),
    [
      concurrentTwin,
      [/UNIQUE constraint failed: shift_events/i, noOpenBreak],
      [/NOT NULL constraint failed: shift_events\.shift_id/i, noOpenShift],
    ],
  );
  return c.json(answer, 200);
};

export const clockOut: AppRouteHandler<routes.ClockOutRoute> = async (c) => {
  const { context, request, replay } = await punch(c, "clock_out", c.req.valid("param"), c.req.valid("json"));
  if (replay) return c.json(replay, 200);
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
  const breaks = [...context.openShiftBreaks.map((b) => (b.endAt ? b : { ...b, endAt: at })), ...automatic].sort(
    (a, b) => a.startAt.getTime() - b.startAt.getTime(),
  );
  const answer = serializeShift(updated, breaks, { events });
  const db = c.var.db;
  await guarded(
    writeAll(db, [
      ...recordAnswer(c, answer),
      db.insert(shiftEvents).values(events.map((e) => ({ ...e, shiftId: stillOpen(shift.id) }))),
      db.update(shiftBreaks).set({ endAt: at }).where(and(eq(shiftBreaks.shiftId, shift.id), isNull(shiftBreaks.endAt))),
      ...(automatic.length > 0 ? [db.insert(shiftBreaks).values(automatic)] : []),
      db.update(shifts).set(updated).where(and(eq(shifts.id, shift.id), isNull(shifts.endAt))),
    ]),
    [
      concurrentTwin,
      [/UNIQUE constraint failed: shift_events/i, noOpenShift],
      [/NOT NULL constraint failed: shift_events\.shift_id/i, noOpenShift],
    ],
  );
  return c.json(answer, 200);
};
