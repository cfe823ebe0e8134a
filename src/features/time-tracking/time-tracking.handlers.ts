import type { Context } from "hono";
import { loadShiftState } from "@/data/shifts/shift-state.data";
import { originOf, type PunchOrigin } from "@/domain/punch-source";
import { requestNow } from "@/platform/http/clock";
import type { AppBindings, AppRouteHandler } from "@/platform/http/env";
import { jsonAnswer } from "@/platform/http/json-answer";
import {
  clockIn as clockInPunch,
  clockOut as clockOutPunch,
  breakEnd as endBreak,
  type PunchAnswer,
  type PunchChecks,
  type PunchOrder,
  type PunchParams,
  breakStart as startBreak,
  switchShift as switchPunch,
} from "./punch-pipeline";
import type * as routes from "./time-tracking.routes";

type PunchCtx = Context<AppBindings>;

/** `request.cf` knows roughly where the request entered Cloudflare (absent locally). */
const cfLocation = (c: Context) => {
  const cf = c.req.raw.cf as { latitude?: string; longitude?: string } | undefined;
  return cf ? { latitude: cf.latitude, longitude: cf.longitude } : null;
};

/** The punch pipeline's order from a request: its database and principal, its Idempotency-Key and where it entered. */
export const punchOrder = (c: PunchCtx, params: PunchParams, origin: PunchOrder["origin"], checks?: PunchChecks): PunchOrder => ({
  writer: c.var,
  idempotency: c.var.idempotency,
  requestLocation: cfLocation(c),
  params,
  origin,
  checks,
  now: () => requestNow(c),
});

/** A replay says so (Idempotent-Replayed), as the idempotency middleware does for other writes. */
export const markReplay = (c: PunchCtx, { replayed }: PunchAnswer) => {
  if (replayed) c.header("Idempotent-Replayed", "true");
};

const answered = (c: PunchCtx, punched: PunchAnswer) => {
  markReplay(c, punched);
  return jsonAnswer(c, punched.answer);
};

/** A punch with an access token: the staff member's own (MOBILE) or an organization-level one (API). */
const tokenOrigin = (c: PunchCtx): PunchOrigin => originOf(c.var.principal, "punch");

export const shiftState: AppRouteHandler<routes.ShiftStateRoute> = async (c) => {
  const { organization_id, id, location_id } = c.req.valid("param");
  const scope = { organizationId: organization_id, staffMemberId: id, locationId: location_id };
  return c.json(await loadShiftState(c.var.db, scope, await requestNow(c)), 200);
};

export const clockIn: AppRouteHandler<routes.ClockInRoute> = async (c) =>
  answered(c, await clockInPunch(punchOrder(c, c.req.valid("param"), tokenOrigin(c)), c.req.valid("json")));

export const breakStart: AppRouteHandler<routes.BreakStartRoute> = async (c) =>
  answered(c, await startBreak(punchOrder(c, c.req.valid("param"), tokenOrigin(c)), c.req.valid("json")));

export const breakEnd: AppRouteHandler<routes.BreakEndRoute> = async (c) =>
  answered(c, await endBreak(punchOrder(c, c.req.valid("param"), tokenOrigin(c)), c.req.valid("json")));

export const clockOut: AppRouteHandler<routes.ClockOutRoute> = async (c) =>
  answered(c, await clockOutPunch(punchOrder(c, c.req.valid("param"), tokenOrigin(c)), c.req.valid("json")));

/**
 * Switch: the clock-out of the open shift and the clock-in of the next at the same instant, in one write batch
 * (each with its guards and its event), so that no time falls between them and neither lands alone.
 */
export const switchShift: AppRouteHandler<routes.SwitchRoute> = async (c) => {
  const punched = await switchPunch(punchOrder(c, c.req.valid("param"), tokenOrigin(c)), c.req.valid("json"));
  markReplay(c, punched);
  // A replay answers as it always did (c.json); a fresh switch with the text its event serialized.
  return punched.replayed ? c.json(punched.answer, 200) : jsonAnswer(c, punched.answer);
};
