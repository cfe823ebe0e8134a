import { idempotencyKeys } from "@db/schema";
import type { Context } from "hono";
import { outcomeOf, recordStatements } from "@/data/idempotency";
import { jsonOnce } from "@/data/json-once";
import { type ConstraintProblem, whenDuplicate } from "@/data/write/constraint-problems";
import type { AppBindings } from "@/platform/http/env";
import { keyReused, requestInProgress } from "@/platform/middleware/idempotency";
import type { ShiftWire } from "@/wire/shift.schemas";
import type { PunchContext } from "./punch-context.data";

type PunchCtx = Context<AppBindings>;

/**
 * A punch sent again with its Idempotency-Key: the stored first answer (found by the read batch), or a refusal
 * of a different request under the same key. Undefined for a fresh key.
 */
export function previousAnswer(c: PunchCtx, context: PunchContext): ShiftWire | undefined {
  const request = c.var.idempotency;
  if (!request) return undefined;
  const outcome = outcomeOf(context.idempotencyRecord, request.hash);
  if (!outcome) return undefined;
  if (outcome.outcome === "reused") throw keyReused();
  if (outcome.outcome === "in_progress") throw requestInProgress();
  c.header("Idempotent-Replayed", "true");
  return JSON.parse(outcome.response.body) as ShiftWire;
}

/** Statements that store this answer under the key: they go first in the punch's write batch. */
export const recordAnswer = (c: PunchCtx, answer: ShiftWire) =>
  c.var.idempotency
    ? recordStatements(c.var.db, c.var.idempotency, { status: 200, body: jsonOnce(answer), contentType: "application/json" })
    : [];

/** A concurrent twin with the same key wrote first: this one fails whole and says so. */
export const concurrentTwin: ConstraintProblem = whenDuplicate(idempotencyKeys, requestInProgress);
