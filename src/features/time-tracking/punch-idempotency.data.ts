import { idempotencyKeys } from "@db/schema";
import type { Database } from "@/data/client";
import { type IdempotentRequest, outcomeOf, recordStatements } from "@/data/idempotency";
import { jsonOnce } from "@/data/json-once";
import { type ConstraintProblem, whenDuplicate } from "@/data/write/constraint-problems";
import { keyReused, requestInProgress } from "@/platform/middleware/idempotency";
import type { ShiftWire } from "@/wire/shift.schemas";
import type { PunchContext } from "./punch-context.data";

/**
 * A punch sent again with its Idempotency-Key: the stored first answer (found by the read batch), or a refusal
 * of a different request under the same key. Undefined for a fresh key (the route says Idempotent-Replayed).
 */
export function previousAnswer(request: IdempotentRequest | undefined, context: PunchContext): ShiftWire | undefined {
  if (!request) return undefined;
  const outcome = outcomeOf(context.idempotencyRecord, request.hash);
  if (!outcome) return undefined;
  if (outcome.outcome === "reused") throw keyReused();
  if (outcome.outcome === "in_progress") throw requestInProgress();
  return JSON.parse(outcome.response.body) as ShiftWire;
}

/** Statements that store this answer under the key: they go first in the punch's write batch. */
export const recordAnswer = (db: Database, request: IdempotentRequest | undefined, answer: ShiftWire) =>
  request ? recordStatements(db, request, { status: 200, body: jsonOnce(answer), contentType: "application/json" }) : [];

/** A concurrent twin with the same key wrote first: this one fails whole and says so. */
export const concurrentTwin: ConstraintProblem = whenDuplicate(idempotencyKeys, requestInProgress);
