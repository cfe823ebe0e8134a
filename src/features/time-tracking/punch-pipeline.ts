import type { Statement } from "@/data/client";
import type { IdempotentRequest } from "@/data/idempotency";
import type { EventType } from "@/data/outbox/outbox";
import { checkedValues } from "@/data/shifts/custom-field-values.data";
import type { ConstraintProblems } from "@/data/write/constraint-problems";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import type { RequestLocation } from "@/domain/trust";
import type { AttendanceExceptionRow } from "@/features/attendance/attendance.schemas";
import { raising } from "@/features/attendance/attendance-exceptions.data";
import { clockInExceptions, clockOutExceptions } from "@/features/attendance/punch-attendance.data";
import { breakAlreadyOpen, breakTypeUnavailable, noOpenBreak } from "@/problems/shifts";
import type { ClockOutFields, PunchFields } from "@/wire/punch.schemas";
import { type ShiftWire, serializeShift } from "@/wire/shift.schemas";
import { loadPunchContext, type PunchContext, type PunchGate, roleOf } from "./punch-context.data";
import {
  clockInRole,
  eventRow,
  judge,
  openShiftHere,
  type PunchRequest,
  refuseLockedDay,
  refuseUnknownCostCode,
  switchRole,
} from "./punch-decisions";
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

/**
 * One punch, from a phone, an integration or a kiosk: read (one batch), decide (punch-decisions' judgement and the
 * domain), write (one guarded batch). It takes no request: the routes (time-tracking.handlers, kiosk-punches.handlers)
 * hand it this order and answer what it returns.
 */
export interface PunchOrder {
  /** The database and principal the write batch goes through. */
  writer: Writer;
  /** The request's Idempotency-Key, its scope and its hash, when it has one. */
  idempotency: IdempotentRequest | undefined;
  /** Roughly where the request entered the network (Cloudflare's `request.cf`; absent locally). */
  requestLocation: RequestLocation | null;
  params: PunchParams;
  /** Where the punch came from (MOBILE, API, KIOSK with its device), and a kiosk's photo of it. */
  origin: PunchRequest["origin"];
  checks?: PunchChecks;
  /** The organization's time (a sandbox's test clock: src/platform/http/clock.ts); absent: the real time. */
  now?: () => Promise<Date>;
}

/** The shift as answered; `replayed` when it is the stored first answer of a punch sent again with its key. */
export interface PunchAnswer {
  answer: ShiftWire;
  replayed: boolean;
}

type SwitchFields = PunchFields & { roleId?: string; costCodeId?: string };

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
  order: PunchOrder,
  kind: K,
  body: PunchFields & { roleId?: string; costCodeId?: string },
): Promise<Punch<K>> {
  const { params, origin, checks = {} } = order;
  const receivedAt = order.now ? await order.now() : new Date();
  const context = await loadPunchContext(order.writer.db, {
    kind,
    organizationId: params.organization_id,
    staffMemberId: params.id,
    locationId: params.location_id,
    roleId: body.roleId,
    costCodeId: body.costCodeId,
    around: body.occurredAt ? new Date(body.occurredAt) : receivedAt,
    idempotency: order.idempotency,
    photoId: origin.photoId ?? undefined,
    gate: checks.gate,
  });
  const replay = previousAnswer(order.idempotency, context);
  if (!replay) checks.check?.(context);
  return {
    context,
    request: { kind, body, receivedAt, requestLocation: order.requestLocation, idempotencyKey: order.idempotency?.key ?? null, origin },
    replay,
  };
}

/**
 * A punch's one atomic write batch (round trip 2 of 2): the principal guard, its answer under the Idempotency-Key,
 * then its rows, then the attendance exceptions it raises (features/attendance), each with its event.
 */
function commit(
  order: PunchOrder,
  organizationId: string,
  type: EventType,
  answer: ShiftWire,
  statements: Statement[],
  problems: ConstraintProblems,
  exceptions: readonly AttendanceExceptionRow[] = [],
) {
  const { db } = order.writer;
  const raised = raising(db, organizationId, exceptions);
  return guardedBatch(
    order.writer,
    [...recordAnswer(db, order.idempotency, answer), ...statements, ...raised.statements] as [Statement, ...Statement[]],
    [concurrentTwin, ...problems],
    { events: [{ type, organizationId, data: answer }, ...raised.events] },
  );
}

export type ClockInFields = PunchFields &
  Pick<ClockOutFields, "customFields"> & { roleId: string; costCodeId?: string; utcOffset?: number };

/** Clock-in, by whichever client: the shift it opens, as answered (a replay answers the first answer). */
export async function clockIn(order: PunchOrder, body: ClockInFields): Promise<PunchAnswer> {
  const { origin } = order;
  const { context, request, replay } = await punch(order, "clock_in", body);
  if (replay) return { answer: replay, replayed: true };
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
  const writes = clockInWrites(order.writer.db, shift, event, fields.column);
  await commit(order, shift.organizationId, "shift.clocked_in", answer, writes, clockInProblems(order.writer.db, shift), exceptions);
  return { answer, replayed: false };
}

export async function breakStart(order: PunchOrder, body: PunchFields & { typeId: string }): Promise<PunchAnswer> {
  const { context, request, replay } = await punch(order, "break_start", body);
  if (replay) return { answer: replay, replayed: true };
  const shift = openShiftHere(context);
  if (context.openShiftBreaks.some((b) => b.endAt === null)) throw breakAlreadyOpen();
  const type = context.breakTypes.find((t) => t.id === body.typeId && t.enabled);
  if (!type) throw breakTypeUnavailable();
  const judgement = judge(context, request);
  const started = startedBreakRow(shift, type, judgement.at);
  const event = eventRow(context, request, judgement, shift.id, started.id);
  const changes = touchedShift(shift, event.flags, request.receivedAt);
  const answer = serializeShift({ ...shift, ...changes }, [...context.openShiftBreaks, started], { events: [event] });
  const writes = breakStartWrites(order.writer.db, shift, { started, event, changes });
  await commit(order, shift.organizationId, "shift.break_started", answer, writes, onShiftProblems(order.writer.db, shift, [event]));
  return { answer, replayed: false };
}

export async function breakEnd(order: PunchOrder, body: PunchFields): Promise<PunchAnswer> {
  const { context, request, replay } = await punch(order, "break_end", body);
  if (replay) return { answer: replay, replayed: true };
  const shift = openShiftHere(context);
  const open = context.openShiftBreaks.find((b) => b.endAt === null);
  if (!open) throw noOpenBreak();
  const judgement = judge(context, request);
  const ended = endedBreakRow(open, judgement.at);
  const event = eventRow(context, request, judgement, shift.id, open.id);
  const changes = touchedShift(shift, event.flags, request.receivedAt);
  const breaks = context.openShiftBreaks.map((b) => (b.id === open.id ? ended : b));
  const answer = serializeShift({ ...shift, ...changes }, breaks, { events: [event] });
  const writes = breakEndWrites(order.writer.db, shift, { ended, event, changes });
  await commit(order, shift.organizationId, "shift.break_ended", answer, writes, onShiftProblems(order.writer.db, shift, [event]));
  return { answer, replayed: false };
}

export async function clockOut(order: PunchOrder, body: ClockOutFields): Promise<PunchAnswer> {
  const { origin } = order;
  const { context, request, replay } = await punch(order, "clock_out", body);
  if (replay) return { answer: replay, replayed: true };
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
    { birthDate: context.staff?.birthDate ?? null, optOut: context.staff?.workingTimeOptOut ?? null },
  );
  const writes = clockOutWrites(
    order.writer.db,
    shift,
    { ...closed, changes: { ...closed.changes, customFields: fields.column }, events },
    fields,
  );
  await commit(
    order,
    shift.organizationId,
    "shift.clocked_out",
    answer,
    writes,
    onShiftProblems(order.writer.db, shift, events),
    exceptions,
  );
  return { answer, replayed: false };
}

/**
 * Switch: the clock-out of the open shift and the clock-in of the next at the same instant, in one write batch
 * (each with its guards and its event), so that no time falls between them and neither lands alone.
 */
export async function switchShift(order: PunchOrder, body: SwitchFields): Promise<PunchAnswer> {
  const { origin } = order;
  const { context, request, replay } = await punch(order, "clock_out", body);
  if (replay) return { answer: replay, replayed: true };
  refuseUnknownCostCode(context);
  const ending = openShiftHere(context);
  if (context.openShiftBreaks.some((b) => b.endAt === null))
    throw breakAlreadyOpen("A break is open on the shift: end it before switching.");
  const role = switchRole(context, body.roleId ? context.role : await roleOf(order.writer.db, ending.organizationId, ending.roleId));
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
  const { db } = order.writer;
  const organizationId = ending.organizationId;
  await guardedBatch(
    order.writer,
    [
      ...recordAnswer(db, order.idempotency, answer),
      ...clockOutWrites(db, ending, { ...closed, events: [outEvent] }),
      ...clockInWrites(db, next, inEvent),
    ] as [Statement, ...Statement[]],
    [concurrentTwin, ...switchingProblems(db, ending, [outEvent]), ...clockInProblems(db, next)],
    {
      events: [
        { type: "shift.clocked_out", organizationId, data: ended },
        { type: "shift.clocked_in", organizationId, data: answer },
      ],
    },
  );
  return { answer, replayed: false };
}
