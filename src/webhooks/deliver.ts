import { and, asc, count, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { events, webhookDeliveries, webhooks } from "../../drizzle/schema";
import type { Database, Statement } from "../lib/db";
import { guarded } from "../lib/db-errors";
import { freezeGuard, MOVING_RETRY_AFTER_SECONDS, organizationMovingProblem } from "../lib/principal-guard";
import { ProblemError } from "../lib/problem";
import { type EventWire, serializeEvent } from "../lib/event-data";
import { newId } from "../lib/ids";
import { decryptSecret } from "./secret";

export const MAX_ATTEMPTS = 6;
/** Events failed for good in a row after which an endpoint is disabled. */
export const DISABLE_AFTER_FAILURES = 5;
/** Events one wake-up delivers before handing on to a new message (a consumer invocation stays short). */
const BUDGET = 50;
const TIMEOUT_MS = 10_000;

/** 30 s, 1 min, 2 min, … capped at an hour. */
export const backoffSeconds = (attempt: number) => Math.min(30 * 2 ** (attempt - 1), 3600);

/** Worth another attempt: the receiver or the way there failed, or it asked us to come back. */
export const retryable = (status: number | null) => status === null || status >= 500 || status === 408 || status === 429;

export interface DeliveryDeps {
  db: Database;
  secretKey: string | undefined;
  fetch: (request: Request) => Promise<Response>;
  now?: () => Date;
}

interface Attempt {
  status: number | null;
  durationMs: number;
  error: string | null;
}

type WebhookRow = typeof webhooks.$inferSelect;

/** POSTs one event, signed per Standard Webhooks (webhook-id = the event's id: receivers de-duplicate on it). */
export async function post(deps: DeliveryDeps, hook: WebhookRow, event: Pick<EventWire, "id"> & object): Promise<Attempt> {
  const body = JSON.stringify(event);
  const now = deps.now?.() ?? new Date();
  const signer = new Webhook(await decryptSecret(deps.secretKey, hook.id, hook.secret));
  const headers = {
    "content-type": "application/json",
    "user-agent": "Shiftline-Webhooks/1.0",
    "webhook-id": event.id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": signer.sign(event.id, now, body),
  };
  const started = Date.now();
  try {
    const response = await deps.fetch(new Request(hook.url, { method: "POST", headers, body, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "manual" }));
    await response.body?.cancel();
    return { status: response.status, durationMs: Date.now() - started, error: null };
  } catch (error) {
    return { status: null, durationMs: Date.now() - started, error: error instanceof Error ? error.message.slice(0, 500) : "network error" };
  }
}

const nextEvent = async (db: Database, hook: WebhookRow) =>
  (
    await db
      .select()
      .from(events)
      .where(
        and(
          eq(events.organizationId, hook.organizationId),
          gt(events.sequence, hook.deliveredSequence),
          hook.types.length ? inArray(events.type, hook.types) : undefined,
        ),
      )
      .orderBy(asc(events.sequence))
      .limit(1)
  )[0];

const frozenRetry = { retryInSeconds: MOVING_RETRY_AFTER_SECONDS };

/**
 * Writes an attempt's record behind the freeze guard: false, writing nothing, when a move froze the organization
 * since the endpoint was read (the event is delivered again after the move; receivers de-duplicate on its id).
 */
async function unlessFrozen(db: Database, organizationId: string, statements: Statement[]): Promise<boolean> {
  try {
    await guarded(db.batch([freezeGuard(db, organizationId), ...statements]), [organizationMovingProblem]);
    return true;
  } catch (error) {
    if (error instanceof ProblemError && error.code === "ORGANIZATION_MOVING") return false;
    throw error;
  }
}

/**
 * Delivers an endpoint's pending events in sequence order, one at a time: the cursor (deliveredSequence) moves past
 * an event only once it succeeded or failed for good, so event n+1 never goes before n. Answers when to come back:
 * `retryInSeconds` after a retryable failure (the queue message is retried then), `more` when the budget ran out.
 */
export async function deliverPending(deps: DeliveryDeps, webhookId: string): Promise<{ retryInSeconds?: number; more?: boolean }> {
  const { db } = deps;
  for (let i = 0; i < BUDGET; i++) {
    const [found] = await db
      .select({ hook: webhooks, frozen: sql<number>`EXISTS (SELECT 1 FROM organization_freezes f WHERE f.organization_id = ${webhooks.organizationId})` })
      .from(webhooks)
      .where(and(eq(webhooks.id, webhookId), isNull(webhooks.deletedAt), eq(webhooks.enabled, true)));
    if (!found) return {};
    // An organization being moved between shards is not written: come back after the move.
    if (found.frozen) return frozenRetry;
    const { hook } = found;
    const event = await nextEvent(db, hook);
    if (!event) return {};
    const [{ previous }] = (await db
      .select({ previous: count() })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.webhookId, hook.id), eq(webhookDeliveries.eventId, event.id)))) as [{ previous: number }];
    const attempt = previous + 1;
    const result = await post(deps, hook, serializeEvent(event));
    const succeeded = result.status !== null && result.status >= 200 && result.status < 300;
    const retry = !succeeded && retryable(result.status) && attempt < MAX_ATTEMPTS;
    const now = deps.now?.() ?? new Date();
    const delivery = {
      id: newId(),
      organizationId: hook.organizationId,
      webhookId: hook.id,
      eventId: event.id,
      eventType: event.type,
      sequence: event.sequence,
      attempt,
      status: succeeded ? ("succeeded" as const) : retry ? ("retrying" as const) : ("failed" as const),
      responseStatus: result.status,
      durationMs: result.durationMs,
      error: result.error,
      nextRetryAt: retry ? new Date(now.getTime() + backoffSeconds(attempt) * 1000) : null,
      createdAt: now,
    };
    if (retry) {
      if (!(await unlessFrozen(db, hook.organizationId, [db.insert(webhookDeliveries).values(delivery)]))) return frozenRetry;
      return { retryInSeconds: backoffSeconds(attempt) };
    }
    const failures = succeeded ? sql`0` : sql`${webhooks.consecutiveFailures} + 1`;
    const recorded = await unlessFrozen(db, hook.organizationId, [
      db.insert(webhookDeliveries).values(delivery),
      db
        .update(webhooks)
        .set({
          deliveredSequence: event.sequence,
          consecutiveFailures: failures,
          enabled: succeeded ? true : sql`${webhooks.consecutiveFailures} + 1 < ${DISABLE_AFTER_FAILURES}`,
          disabledReason: succeeded ? null : sql`CASE WHEN ${webhooks.consecutiveFailures} + 1 < ${DISABLE_AFTER_FAILURES} THEN NULL ELSE 'failures' END`,
        })
        .where(and(eq(webhooks.id, hook.id), eq(webhooks.deliveredSequence, hook.deliveredSequence))),
    ]);
    if (!recorded) return frozenRetry;
  }
  return { more: true };
}
