import { z } from "zod";
import { createRouter } from "@/platform/create-app";
import { countryOf } from "@/platform/middleware/database";
import { invalidField, ProblemError, validationFailed } from "@/problems/problem";
import { advanceMove, DEFAULT_SETTLE_MS, MoveRefused, requestAbort, startMove } from "@/shards/move-organization";

/**
 * Operator-only routes, outside /api and the OpenAPI document: authorized by the OPERATOR_SECRET secret
 * (`wrangler secret put OPERATOR_SECRET`; `.dev.vars` locally), absent (404) when it is not set. Partners' tokens
 * mean nothing here. `npm run shards:move` drives the move route until the move is done (docs/SCALING.md).
 */
export const MOVE_PATH = "/operator/organizations/:organizationId/move";

const MoveRequest = z.strictObject({
  /** Starts (or continues) a move to this shard binding. */
  to: z.string().min(1).optional(),
  /** Undoes a move that has not flipped the directory yet. */
  abort: z.literal(true).optional(),
  /** Pages of work this call may do (each a D1 round trip or two). */
  pages: z.number().int().min(1).max(200).optional(),
  /** How long the freeze stands before the copy starts (default 10 s). */
  settleSeconds: z.number().int().min(0).max(300).optional(),
});

const digest = async (value: string) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));

async function isOperator(secret: string, authorization: string | undefined): Promise<boolean> {
  const sent = authorization?.match(/^Bearer (.+)$/)?.[1] ?? "";
  return crypto.subtle.timingSafeEqual(await digest(sent), await digest(secret));
}

/** A move refused as bad input (the target shard) names `to`, as every other 400 names its field. */
const refusal = (error: unknown) => {
  if (!(error instanceof MoveRefused)) return error;
  return error.status === 400 ? invalidField("to", error.message) : new ProblemError(error.status, "HTTP_ERROR", error.message);
};

export default createRouter().post(MOVE_PATH, async (c) => {
  const secret = c.env.OPERATOR_SECRET;
  if (!secret) throw new ProblemError(404, "ROUTE_NOT_FOUND", `No route for ${c.req.method} ${c.req.path}.`);
  if (!(await isOperator(secret, c.req.header("Authorization")))) {
    throw new ProblemError(401, "HTTP_ERROR", "This route needs `Authorization: Bearer <OPERATOR_SECRET>`.");
  }
  const parsed = MoveRequest.safeParse(await c.req.json().catch(() => ({})));
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({ path: issue.path.join(".") || "(root)", message: issue.message }));
    throw validationFailed(errors);
  }
  const { to, abort, pages, settleSeconds } = parsed.data;
  const organizationId = c.req.param("organizationId");
  try {
    if (abort) await requestAbort(c.env, organizationId);
    else if (to) await startMove(c.env, organizationId, to);
    const settleMs = settleSeconds === undefined ? DEFAULT_SETTLE_MS : settleSeconds * 1000;
    // The move's audit entry (its flip's) names no operation (these routes are outside the document) but the country.
    const audit = { operationId: null, ipCountry: countryOf(c.req.raw) };
    return c.json(await advanceMove(c.env, organizationId, { pages, settleMs, audit }));
  } catch (error) {
    throw refusal(error);
  }
});
