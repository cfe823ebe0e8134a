import type { Context } from "hono";
import type { Statement } from "@/data/client";
import type { EventType } from "@/data/outbox/outbox";
import { checkedValues } from "@/data/shifts/custom-field-values.data";
import { loadShiftState } from "@/data/shifts/shift-state.data";
import type { ConstraintProblems } from "@/data/write/constraint-problems";
import { guardedBatch } from "@/data/write/guarded-batch";
import { originOf, type PunchOrigin } from "@/domain/punch-source";
import type { AttendanceExceptionRow } from "@/features/attendance/attendance.schemas";
import { raising } from "@/features/attendance/attendance-exceptions.data";
import { clockInExceptions, clockOutExceptions } from "@/features/attendance/punch-attendance.data";
import type { AppBindings, AppRouteHandler } from "@/platform/http/env";
import { jsonAnswer } from "@/platform/http/json-answer";
import { breakAlreadyOpen, breakTypeUnavailable, noOpenBreak } from "@/problems/shifts";
import type { ClockOutFields, PunchFields } from "@/wire/punch.schemas";
import { type ShiftWire, serializeShift } from "@/wire/shift.schemas";
import {
  clockInRole,
  eventRow,
  judge,
  openShiftHere,
  type PunchRequest,
  refuseLockedDay,
  refuseUnknownCostCode,
  switchRole,
} from "./punch.handlers";
import { loadPunchContext, type PunchContext, type PunchGate, roleOf } from "./punch-context.data";
import { concurrentTwin, previousAnswer, recordAnswer } from "./punch-idempotency.data";
import { closedShift, endedBreakRow, openShiftRow, startedBreakRow, touchedShift } from "./punch-rows.data";
import {
  breakEndWrites,
  breakStartWrites,
  clockInProblems,
  clockInWrites,
  clockOutWrites,
  onShiftProblems,
  switchingProblems,
} from "./punch-writes.data";
import type * as routes from "./time-tracking.routes";

type PunchCtx = Context<AppBindings>;

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

/** Who punches where: the staff member and location of the path (a kiosk's: its body and its device's location). */
export interface PunchParams {
  organization_id: string;
  id: string;
  location_id: string;
}

/** What a client's punches must also satisfy, checked on the read (a kiosk's photo, say); a replay skips it. */
export type PunchCheck = (context: PunchContext) => void;

/** A client's own checks: a gate read in the punch's batch and passed first, a replay too (a kiosk's PIN), and a check. */
export interface PunchChecks {
  gate?: PunchGate;
  check?: PunchCheck;
}

/** A punch's one read batch (D1 round trip 1 of 2). */
async function punch<K extends PunchRequest["kind"]>(
  c: PunchCtx,
  kind: K,
  params: PunchParams,
  body: PunchFields & { roleId?: string; costCodeId?: string },
  origin: PunchRequest["origin"],
  checks: PunchChecks = {},
): Promise<Punch<K>> {
  const receivedAt = new Date();
  const context = await loadPunchContext(c.var.db, {
    kind,
    organizationId: params.organization_id,
    staffMemberId: params.id,
    locationId: params.location_id,
    roleId: body.roleId,
    costCodeId: body.costCodeId,
    around: body.occurredAt ? new Date(body.occurredAt) : receivedAt,
    idempotency: c.var.idempotency,
    photoId: origin.photoId ?? undefined,
    gate: checks.gate,
  });
  const replay = previousAnswer(c, context);
  if (!replay) checks.check?.(context);
  return {
    context,
    request: { kind, body, receivedAt, requestLocation: cfLocation(c), idempotencyKey: c.var.idempotency?.key ?? null, origin },
    replay,
  };
}

/**
 * A punch's one atomic write batch (round trip 2 of 2): the principal guard, its answer under the Idempotency-Key,
 * then its rows, then the attendance exceptions it raises (features/attendance), each with its event.
 */
function commit(
  c: PunchCtx,
  organizationId: string,
  type: EventType,
  answer: ShiftWire,
  statements: Statement[],
  problems: ConstraintProblems,
  exceptions: readonly AttendanceExceptionRow[] = [],
) {
  const raised = raising(c.var.db, organizationId, exceptions);
  return guardedBatch(
    c.var,
    [...recordAnswer(c, answer), ...statements, ...raised.statements] as [Statement, ...Statement[]],
    [concurrentTwin, ...problems],
    { events: [{ type, organizationId, data: answer }, ...raised.events] },
  );
}

/** A punch with an access token: the staff member's own (MOBILE) or an organization-level one (API). */
const tokenOrigin = (c: PunchCtx): PunchOrigin => originOf(c.var.principal, "punch");

export const shiftState: AppRouteHandler<routes.ShiftStateRoute> = async (c) => {
  const { organization_id, id, location_id } = c.req.valid("param");
  return c.json(await loadShiftState(c.var.db, { organizationId: organization_id, staffMemberId: id, locationId: location_id }), 200);
};

type ClockInFields = PunchFields & Pick<ClockOutFields, "customFields"> & { roleId: string; costCodeId?: string; utcOffset?: number };

/** Clock-in, by whichever client: the shift it opens, as answered (a replay answers the first answer). */
export async function clockInWith(
  c: PunchCtx,
  params: PunchParams,
  body: ClockInFields,
  origin: PunchRequest["origin"],
  checks?: PunchChecks,
) {
  const { context, request, replay } = await punch(c, "clock_in", params, body, origin, checks);
  if (replay) return replay;
  const role = clockInRole(context);
  const judgement = judge(context, request);
  const fields = await checkedValues(context.customFields, {}, body.customFields);
  const shift = openShiftRow(context, role, judgement, {
    utcOffset: body.utcOffset,
    receivedAt: request.receivedAt,
    costCodeId: body.costCodeId,
    customFields: fields.values,
    origin,
  });
  refuseLockedDay(context, shift.businessDate);
  const event = eventRow(context, request, judgement, shift.id);
  const answer = serializeShift(shift, [], { events: [event] });
  const exceptions = clockInExceptions(context.attendance, shift, request.receivedAt);
  const writes = clockInWrites(c.var.db, shift, event, fields.column);
  await commit(c, shift.organizationId, "shift.clocked_in", answer, writes, clockInProblems(c.var.db, shift), exceptions);
  return answer;
}

export const clockIn: AppRouteHandler<routes.ClockInRoute> = async (c) =>
  jsonAnswer(c, await clockInWith(c, c.req.valid("param"), c.req.valid("json"), tokenOrigin(c)));

export async function breakStartWith(
  c: PunchCtx,
  params: PunchParams,
  body: PunchFields & { typeId: string },
  origin: PunchRequest["origin"],
  checks?: PunchChecks,
) {
  const { context, request, replay } = await punch(c, "break_start", params, body, origin, checks);
  if (replay) return replay;
  const shift = openShiftHere(context);
  if (context.openShiftBreaks.some((b) => b.endAt === null)) throw breakAlreadyOpen();
  const type = context.breakTypes.find((t) => t.id === body.typeId && t.enabled);
  if (!type) throw breakTypeUnavailable();
  const judgement = judge(context, request);
  const started = startedBreakRow(shift, type, judgement.at);
  const event = eventRow(context, request, judgement, shift.id, started.id);
  const changes = touchedShift(shift, event.flags, request.receivedAt);
  const answer = serializeShift({ ...shift, ...changes }, [...context.openShiftBreaks, started], { events: [event] });
  const writes = breakStartWrites(c.var.db, shift, { started, event, changes });
  await commit(c, shift.organizationId, "shift.break_started", answer, writes, onShiftProblems(c.var.db, shift, [event]));
  return answer;
}

export const breakStart: AppRouteHandler<routes.BreakStartRoute> = async (c) =>
  jsonAnswer(c, await breakStartWith(c, c.req.valid("param"), c.req.valid("json"), tokenOrigin(c)));

export async function breakEndWith(
  c: PunchCtx,
  params: PunchParams,
  body: PunchFields,
  origin: PunchRequest["origin"],
  checks?: PunchChecks,
) {
  const { context, request, replay } = await punch(c, "break_end", params, body, origin, checks);
  if (replay) return replay;
  const shift = openShiftHere(context);
  const open = context.openShiftBreaks.find((b) => b.endAt === null);
  if (!open) throw noOpenBreak();
  const judgement = judge(context, request);
  const ended = endedBreakRow(open, judgement.at);
  const event = eventRow(context, request, judgement, shift.id, open.id);
  const changes = touchedShift(shift, event.flags, request.receivedAt);
  const breaks = context.openShiftBreaks.map((b) => (b.id === open.id ? ended : b));
  const answer = serializeShift({ ...shift, ...changes }, breaks, { events: [event] });
  const writes = breakEndWrites(c.var.db, shift, { ended, event, changes });
  await commit(c, shift.organizationId, "shift.break_ended", answer, writes, onShiftProblems(c.var.db, shift, [event]));
  return answer;
}

export const breakEnd: AppRouteHandler<routes.BreakEndRoute> = async (c) =>
  jsonAnswer(c, await breakEndWith(c, c.req.valid("param"), c.req.valid("json"), tokenOrigin(c)));

export async function clockOutWith(
  c: PunchCtx,
  params: PunchParams,
  body: ClockOutFields,
  origin: PunchRequest["origin"],
  checks?: PunchChecks,
) {
  const { context, request, replay } = await punch(c, "clock_out", params, body, origin, checks);
  if (replay) return replay;
  const shift = openShiftHere(context);
  const judgement = judge(context, request);
  // Every active required field needs a value once the shift ends.
  const fields = await checkedValues(context.customFields, shift.customFields, body.customFields, true);
  const closed = closedShift(shift, context.openShiftBreaks, context.breakTypes, judgement, request.receivedAt, origin);
  const events = [eventRow(context, request, judgement, shift.id)];
  if (closed.ended) {
    // The break's end is the clock-out's: its source and device, not its photo (the clock-out's event has that).
    const breakEnd = { ...request, kind: "break_end" as const, origin: { ...request.origin, photoId: null } };
    events.push(eventRow(context, breakEnd, judgement, shift.id, closed.ended.id));
  }
  const answer = serializeShift({ ...shift, ...closed.changes, customFields: fields.values }, closed.breaks, { events });
  const exceptions = clockOutExceptions(
    context.attendance,
    shift,
    { endAt: judgement.at, breaks: closed.breaks, notTaken: closed.notTaken },
    request.receivedAt,
    context.staff?.mealWaivers,
  );
  const writes = clockOutWrites(
    c.var.db,
    shift,
    { ...closed, changes: { ...closed.changes, customFields: fields.column }, events },
    fields,
  );
  await commit(c, shift.organizationId, "shift.clocked_out", answer, writes, onShiftProblems(c.var.db, shift, events), exceptions);
  return answer;
}

export const clockOut: AppRouteHandler<routes.ClockOutRoute> = async (c) =>
  jsonAnswer(c, await clockOutWith(c, c.req.valid("param"), c.req.valid("json"), tokenOrigin(c)));

/**
 * Switch: the clock-out of the open shift and the clock-in of the next at the same instant, in one write batch
 * (each with its guards and its event), so that no time falls between them and neither lands alone.
 */
export const switchShift: AppRouteHandler<routes.SwitchRoute> = async (c) => {
  const body = c.req.valid("json");
  const origin = tokenOrigin(c);
  const { context, request, replay } = await punch(c, "clock_out", c.req.valid("param"), body, origin);
  if (replay) return c.json(replay, 200);
  refuseUnknownCostCode(context);
  const ending = openShiftHere(context);
  if (context.openShiftBreaks.some((b) => b.endAt === null))
    throw breakAlreadyOpen("A break is open on the shift: end it before switching.");
  const role = switchRole(context, body.roleId ? context.role : await roleOf(c.var.db, ending.organizationId, ending.roleId));
  const out = judge(context, request);
  const opening = { ...request, kind: "clock_in" as const };
  const judgedIn = judge(context, opening);
  const closed = closedShift(ending, context.openShiftBreaks, context.breakTypes, out, request.receivedAt, origin);
  const outEvent = eventRow(context, request, out, ending.id);
  const ended = serializeShift({ ...ending, ...closed.changes }, closed.breaks, { events: [outEvent] });
  const next = openShiftRow(
    context,
    role,
    { ...judgedIn, at: out.at },
    {
      receivedAt: request.receivedAt,
      costCodeId: body.costCodeId,
      origin,
    },
  );
  refuseLockedDay(context, next.businessDate);
  const inEvent = eventRow(context, opening, { ...judgedIn, at: out.at }, next.id);
  const answer = serializeShift(next, [], { events: [inEvent] });
  const { db } = c.var;
  const organizationId = ending.organizationId;
  await guardedBatch(
    c.var,
    [...recordAnswer(c, answer), ...clockOutWrites(db, ending, { ...closed, events: [outEvent] }), ...clockInWrites(db, next, inEvent)] as [
      Statement,
      ...Statement[],
    ],
    [concurrentTwin, ...switchingProblems(db, ending, [outEvent]), ...clockInProblems(db, next)],
    {
      events: [
        { type: "shift.clocked_out", organizationId, data: ended },
        { type: "shift.clocked_in", organizationId, data: answer },
      ],
    },
  );
  return jsonAnswer(c, answer);
};
