import { events, webhookDeliveries, webhooks } from "@db/schema";
import { and, asc, count, eq, getTableColumns, gt, inArray, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import { auditStatement } from "@/data/audit/audit-entries";
import { chunk, rowsPerStatement } from "@/data/chunk";
import type { Database, Statement } from "@/data/client";
import { clockOffsetOfWebhook, shiftedNow } from "@/data/clock";
import { D1_LIMITS } from "@/data/d1-limits";
import { frozenHere } from "@/data/freezes";
import { newId } from "@/data/ids";
import { eventStatement } from "@/data/outbox/outbox";
import { pendingEvents } from "@/data/outbox/pending";
import { guarded } from "@/data/write/constraint-problems";
import { freezeGuard, MOVING_RETRY_AFTER_SECONDS, organizationSettled } from "@/data/write/guarded-batch";
import { eventsInVersion, LATEST_API_VERSION } from "@/domain/api-versions";
import { systemActor } from "@/domain/audit";
import { serializeEvent } from "@/event-forms/serializers";
import { ProblemError } from "@/problems/problem";
import { type Attempt, type DeliveryDeps, type QueryBudget, send, signerOf, TIMEOUT_MS } from "@/webhook-delivery/send";

/**
 * Seconds before the next attempt after attempt n (1-based) failed: the schedule the Standard Webhooks specification
 * gives as its example ("Retry schedule": immediately, 5 seconds, 5 minutes, 30 minutes, 2 hours, 5 hours, 10 hours,
 * 10 hours; github.com/standard-webhooks/standard-webhooks, spec/standard-webhooks.md, as Svix runs it), then two
 * more of 24 hours, so that an event is tried for over 3 days: 75 h 35 min 5 s from its first attempt to its last.
 */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000, 86_400, 86_400] as const;
/** The first attempt and one per step of the schedule. */
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;
/** An endpoint whose attempts have failed for this long without one success is disabled (`webhook.disabled`). */
export const DISABLE_AFTER_MS = 3 * 86_400_000;
/** The longest delay of a Queues message retry (12 hours): a longer backoff is waited out in steps. */
export const MAX_QUEUE_DELAY_SECONDS = 43_200;
/** Replays sent per wake-up. */
const REPLAYS_PER_WAKE = 20;
/** How long one wake-up delivers before handing on to a new queue message (a consumer invocation stays bounded). */
export const TIME_BUDGET_MS = 20_000;
/**
 * The D1 statements one queue invocation's wake-ups send, together, before handing on to a new queue message: D1
 * refuses an invocation's 1,001st query (src/data/d1-limits.ts), and delivering takes about one statement for every
 * five events (their attempts recorded seven rows a statement). Counted one by one, a batch's each; what is left of the
 * 1,000 covers the consumer's own reads, a disabled endpoint's drain and the last step after the budget is reached.
 */
export const DELIVERY_QUERIES_PER_INVOCATION = Math.floor(D1_LIMITS.queriesPerInvocation * 0.8);
export const newQueryBudget = (): QueryBudget => ({ used: 0, limit: DELIVERY_QUERIES_PER_INVOCATION });
/** A lease outlives the wake-up holding it (its budget, then one last POST's timeout): only a crashed one's expires. */
export const LEASE_MS = TIME_BUDGET_MS + TIMEOUT_MS + 30_000;
/** Events read from the outbox per round trip. */
const PAGE = 100;
/** Successful deliveries recorded in one round trip once this many are waiting, or the first has waited this long. */
const RECORD_EVERY = 50;
const RECORD_WITHIN_MS = 1_000;

/** The wait after attempt `attempt` failed (RETRY_SCHEDULE_SECONDS; its last step beyond it). */
export const backoffSeconds = (attempt: number) => RETRY_SCHEDULE_SECONDS[Math.min(attempt, RETRY_SCHEDULE_SECONDS.length) - 1]!;

/** The wake-up's time or the invocation's D1 queries ran out: what is left goes to a new queue message. */
const outOfBudget = (started: number, queries: QueryBudget) => Date.now() - started >= TIME_BUDGET_MS || queries.used >= queries.limit;

/** How long a queue message waits before coming back for a backoff of `seconds` (at most a Queues retry's delay). */
const queueDelay = (seconds: number) => Math.min(seconds, MAX_QUEUE_DELAY_SECONDS);

/** Worth another attempt: the receiver or the way there failed, or it asked us to come back. */
export const retryable = (status: number | null) => status === null || status >= 500 || status === 408 || status === 429;

type WebhookRow = typeof webhooks.$inferSelect;
type EventRow = typeof events.$inferSelect;

/** The lease an endpoint holds through a retry's backoff: no wake-up sends before the retry is due. */
const BACKOFF = "backoff";

/** The endpoint's organization is being moved between shards (src/shards): nothing is written for it meanwhile. */
const frozen = frozenHere(webhooks.organizationId);
/**
 * Not before the lease left on the endpoint has lapsed (it was taken before the refusal): the move copies it, and a
 * wake-up on the new shard while it holds would find the endpoint leased and give up, leaving events pending.
 */
const frozenRetry = { retryInSeconds: Math.max(MOVING_RETRY_AFTER_SECONDS, Math.ceil(LEASE_MS / 1000)) };

/**
 * A batch of delivery records behind the freeze guard: its results, or null, writing nothing, when a move froze the
 * organization since the endpoint was claimed (the events are delivered again after the move; receivers
 * de-duplicate on their id).
 */
async function recordUnlessFrozen(
  db: Database,
  queries: QueryBudget,
  organizationId: string,
  statements: Statement[],
): Promise<unknown[] | null> {
  const batch = [freezeGuard(db, organizationId), ...statements] as [Statement, ...Statement[]];
  queries.used += batch.length;
  try {
    const [, ...results] = await guarded(db.batch(batch), [organizationSettled]);
    return results;
  } catch (error) {
    if (error instanceof ProblemError && error.code === "ORGANIZATION_MOVING") return null;
    throw error;
  }
}

/**
 * The endpoint, if live and enabled and no other wake-up holds an unexpired lease on it: now leased to `lease`.
 * Else, in the same round trip, the lease that held it: a backoff's end is when to come back.
 */
async function claim(
  db: Database,
  queries: QueryBudget,
  webhookId: string,
  lease: string,
  now: Date,
): Promise<{ hook?: WebhookRow; backoffUntil?: Date; frozen?: boolean; replays: Replay[] }> {
  queries.used += 4;
  const [[hook], [current], , replays] = await db.batch([
    db
      .update(webhooks)
      .set({ deliveryLease: lease, deliveringUntil: new Date(now.getTime() + LEASE_MS) })
      .where(
        and(
          eq(webhooks.id, webhookId),
          isNull(webhooks.deletedAt),
          eq(webhooks.enabled, true),
          or(isNull(webhooks.deliveringUntil), lte(webhooks.deliveringUntil, now)),
          sql`NOT ${frozen}`,
          // A deleted organization's endpoints deliver nothing more, whatever was pending.
          sql`EXISTS (SELECT 1 FROM organizations o WHERE o.id = ${webhooks.organizationId} AND o.deleted_at IS NULL)`,
        ),
      )
      .returning(),
    db
      .select({ lease: webhooks.deliveryLease, until: webhooks.deliveringUntil, frozen: sql<number>`${frozen}` })
      .from(webhooks)
      .where(and(eq(webhooks.id, webhookId), isNull(webhooks.deletedAt), eq(webhooks.enabled, true))),
    // A replay of an event the feed no longer holds (older than 30 days) fails at once, or it would wait forever.
    db
      .update(webhookDeliveries)
      .set({ status: "failed", error: "The event is no longer in the feed (30 days).", nextRetryAt: null })
      .where(
        and(
          eq(webhookDeliveries.webhookId, webhookId),
          eq(webhookDeliveries.status, "pending"),
          sql`NOT EXISTS (SELECT 1 FROM ${events} WHERE ${events.id} = ${webhookDeliveries.eventId})`,
          sql`NOT ${frozenHere(webhookDeliveries.organizationId)}`,
        ),
      ),
    // The event's columns and the replay's id under its own name: a batch answers rows keyed by column name.
    db
      .select({ ...getTableColumns(events), deliveryId: sql<string>`${webhookDeliveries.id}`.as("delivery_id") })
      .from(webhookDeliveries)
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.status, "pending")))
      .orderBy(asc(webhookDeliveries.id))
      .limit(REPLAYS_PER_WAKE),
  ]);
  if (hook) return { hook, replays };
  if (current?.frozen) return { frozen: true, replays: [] };
  return current?.lease === BACKOFF && current.until && current.until > now
    ? { backoffUntil: current.until, replays: [] }
    : { replays: [] };
}

type Replay = EventRow & { deliveryId: string };

/**
 * Sends the replays asked for (POST …/deliveries/{id}/replay) under the endpoint's lease, each once: the pending row
 * becomes the attempt made. A replay moves no cursor and schedules no retry. False when a move froze the organization.
 */
async function sendReplays(deps: DeliveryDeps, queries: QueryBudget, hook: WebhookRow, replays: Replay[]): Promise<boolean> {
  if (replays.length === 0) return true;
  const signer = await signerOf(deps, hook);
  for (const { deliveryId, ...event } of replays) {
    const result = await send(deps, hook.url, signer, serializeEvent(event));
    const succeeded = result.status !== null && result.status >= 200 && result.status < 300;
    const made = {
      status: succeeded ? ("succeeded" as const) : ("failed" as const),
      responseStatus: result.status,
      durationMs: result.durationMs,
      error: result.error,
      nextRetryAt: null,
      createdAt: deps.now?.() ?? new Date(),
    };
    const update = deps.db
      .update(webhookDeliveries)
      .set(made)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, "pending")));
    if (!(await recordUnlessFrozen(deps.db, queries, hook.organizationId, [update]))) return false;
  }
  return true;
}

/** The next page of the endpoint's events after `cursor`, and the attempts already made at each (one round trip). */
async function nextPage(db: Database, queries: QueryBudget, hook: WebhookRow, cursor: number) {
  const matching = and(
    eq(events.organizationId, hook.organizationId),
    gt(events.sequence, cursor),
    hook.types.length ? inArray(events.type, hook.types) : undefined,
  );
  const page = db.select().from(events).where(matching).orderBy(asc(events.sequence)).limit(PAGE);
  const pageIds = db.select({ id: events.id }).from(events).where(matching).orderBy(asc(events.sequence)).limit(PAGE);
  const tried = db
    .select({ eventId: webhookDeliveries.eventId, attempts: count() })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.webhookId, hook.id), inArray(webhookDeliveries.eventId, pageIds)))
    .groupBy(webhookDeliveries.eventId);
  queries.used += 2;
  const [rows, attempts] = await db.batch([page, tried]);
  return { rows, attemptsOf: new Map(attempts.map((a) => [a.eventId, a.attempts])) };
}

/**
 * Delivers a leased endpoint's events in sequence order, one at a time: the cursor (deliveredSequence) moves past an
 * event only once it succeeded or failed for good, and only while the lease is ours, so event n+1 never goes before
 * n. Successes are recorded together (their attempts and the cursor, one round trip per RECORD_EVERY events or
 * RECORD_WITHIN_MS): a wake-up that dies before recording them sends them again, which at-least-once allows. Stops at
 * a retryable failure (answering the delay), when the budget is spent, or when the cursor update finds the endpoint
 * disabled, deleted or no longer ours.
 */
async function deliverLeased(
  deps: DeliveryDeps,
  queries: QueryBudget,
  hook: WebhookRow,
  lease: string,
  started: number,
): Promise<{ retryInSeconds?: number; disabled?: boolean }> {
  const { db } = deps;
  let cursor = hook.deliveredSequence;
  let unrecorded: Delivery[] = [];
  let oldestUnrecorded = 0;
  let frozenMeanwhile = false;

  let disabled = false;

  /** Records attempts and moves the cursor past the last: false if the endpoint is no longer ours to deliver. */
  const record = async (deliveries: Delivery[], succeeded: boolean) => {
    if (deliveries.length === 0) return true;
    const last = deliveries.at(-1)!.sequence;
    const now = deliveries.at(-1)!.createdAt;
    const inserts = chunk(deliveries, rowsPerStatement(Object.keys(deliveries[0]!).length)).map((rows) =>
      db.insert(webhookDeliveries).values(rows),
    );
    const results = await recordUnlessFrozen(db, queries, hook.organizationId, [
      ...inserts,
      moveCursor(db, hook.id, lease, cursor, last, succeeded, now),
      ...(succeeded ? [] : disabledEvent(db, hook, now)),
    ]);
    if (!results) frozenMeanwhile = true;
    // After the cursor's move: nothing, or the disabling's event and its audit entry.
    const moved = results?.at(succeeded ? -1 : -3) as { enabled: boolean }[] | undefined;
    if (!moved || moved.length === 0) return false;
    cursor = last;
    if (!moved[0]!.enabled) disabled = true;
    return !disabled;
  };
  const flush = async () => {
    const recorded = await record(unrecorded, true);
    unrecorded = [];
    return recorded;
  };

  const deliver = async (): Promise<{ retryInSeconds?: number }> => {
    const signer = await signerOf(deps, hook);
    let sent = cursor;
    for (;;) {
      const { rows, attemptsOf } = await nextPage(db, queries, hook, sent);
      for (const event of rows) {
        if (outOfBudget(started, queries)) return {};
        const attempt = (attemptsOf.get(event.id) ?? 0) + 1;
        const result = await sendInVersion(deps, hook, signer, serializeEvent(event));
        const succeeded = result.status !== null && result.status >= 200 && result.status < 300;
        const retry = !succeeded && retryable(result.status) && attempt < MAX_ATTEMPTS;
        const delivery = deliveryRow(deps, hook, event, attempt, result, succeeded, retry);
        sent = event.sequence;
        if (succeeded) {
          if (unrecorded.length === 0) oldestUnrecorded = Date.now();
          unrecorded.push(delivery);
          if ((unrecorded.length >= RECORD_EVERY || Date.now() - oldestUnrecorded >= RECORD_WITHIN_MS) && !(await flush())) return {};
          continue;
        }
        if (retry) {
          // Recorded successes first: their cursor move needs the lease, which the backoff takes over.
          if (!(await flush())) return {};
          const held = await recordUnlessFrozen(db, queries, hook.organizationId, [
            db.insert(webhookDeliveries).values(delivery),
            holdThroughBackoff(db, hook.id, lease, delivery.nextRetryAt!, delivery.createdAt),
            ...disabledEvent(db, hook, delivery.createdAt),
          ]);
          if (!held) return frozenRetry;
          const [hold] = held[1] as { enabled: boolean }[];
          if (hold && !hold.enabled) {
            disabled = true;
            return {};
          }
          return { retryInSeconds: queueDelay(backoffSeconds(attempt)) };
        }
        if (!(await flush()) || !(await record([delivery], false))) return {};
      }
      if (rows.length < PAGE || outOfBudget(started, queries)) return {};
    }
  };

  const outcome = await deliver();
  await flush();
  // Frozen: the lease is left to expire rather than written (the move copies it; it lapses on the new shard too).
  if (frozenMeanwhile) return frozenRetry;
  return disabled ? { ...outcome, disabled } : outcome;
}

/**
 * The event as the endpoint's API version has it (domain/api-versions): one POST, or before a change that merged
 * two events, one per event in order; the first that fails is the attempt's result (a retry sends them all again:
 * receivers de-duplicate on the id).
 */
async function sendInVersion(deps: DeliveryDeps, hook: WebhookRow, signer: Signer, event: ReturnType<typeof serializeEvent>) {
  let result: Attempt | undefined;
  for (const shaped of eventsInVersion(event, hook.apiVersion ?? LATEST_API_VERSION)) {
    result = await send(deps, hook.url, signer, shaped);
    if (result.status === null || result.status < 200 || result.status >= 300) return result;
  }
  return result!;
}

type Signer = Awaited<ReturnType<typeof signerOf>>;

type Delivery = ReturnType<typeof deliveryRow>;

function deliveryRow(
  deps: DeliveryDeps,
  hook: WebhookRow,
  event: EventRow,
  attempt: number,
  result: Attempt,
  succeeded: boolean,
  retry: boolean,
) {
  const now = deps.now?.() ?? new Date();
  return {
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
}

/** The endpoint has been failing for DISABLE_AFTER_MS by `now`, counting the failure being recorded (SQL). */
const failingTooLong = (now: Date): SQL => sql`coalesce(${webhooks.failingSince}, ${now.getTime()}) <= ${now.getTime() - DISABLE_AFTER_MS}`;

/** A failed attempt's columns: the run of failures starts now if none had; 3 days of it disable the endpoint. */
const failedColumns = (now: Date) => ({
  consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1`,
  failingSince: sql`coalesce(${webhooks.failingSince}, ${now.getTime()})`,
  enabled: sql`NOT (${failingTooLong(now)})`,
  disabledReason: sql`CASE WHEN ${failingTooLong(now)} THEN 'failures' ELSE NULL END`,
  updatedAt: sql`CASE WHEN ${failingTooLong(now)} THEN ${now.getTime()} ELSE ${webhooks.updatedAt} END`,
});

/**
 * `webhook.disabled`, recorded when the statement before it disabled the endpoint at `now` (its updatedAt), for the
 * organization's other endpoints (the disabled one receives nothing more), and its audit entry: webhook delivery
 * disabled it, no person (SYSTEM).
 */
const disabledEvent = (db: Database, hook: WebhookRow, now: Date, eventId = newId()) => [
  eventStatement(
    db,
    {
      type: "webhook.disabled",
      organizationId: hook.organizationId,
      occurredAt: now,
      row: {
        table: webhooks,
        where: and(eq(webhooks.id, hook.id), eq(webhooks.enabled, false), sql`${webhooks.updatedAt} = ${now.getTime()}`)!,
      },
    },
    eventId,
  ),
  auditStatement(db, systemActor("webhook-delivery"), [eventId]),
];

/** Past `sequence`, if the cursor is still `from`, the lease still ours and the endpoint live and enabled. */
const moveCursor = (db: Database, webhookId: string, lease: string, from: number, sequence: number, succeeded: boolean, now: Date) =>
  db
    .update(webhooks)
    .set({
      deliveredSequence: sequence,
      ...(succeeded ? { consecutiveFailures: sql`0`, failingSince: null, enabled: true, disabledReason: null } : failedColumns(now)),
    })
    .where(
      and(
        eq(webhooks.id, webhookId),
        eq(webhooks.deliveredSequence, from),
        eq(webhooks.deliveryLease, lease),
        eq(webhooks.enabled, true),
        isNull(webhooks.deletedAt),
      ),
    )
    .returning({ id: webhooks.id, enabled: webhooks.enabled });

/**
 * Keeps the endpoint leased until the retry is due, so wake-ups in between send nothing (the backoff holds); the
 * failure counts towards the 3 days that disable it (then it is let go instead: a PATCH re-enables it).
 */
const holdThroughBackoff = (db: Database, webhookId: string, lease: string, until: Date, now: Date) =>
  db
    .update(webhooks)
    .set({
      ...failedColumns(now),
      deliveryLease: sql`CASE WHEN ${failingTooLong(now)} THEN NULL ELSE ${BACKOFF} END`,
      deliveringUntil: sql`CASE WHEN ${failingTooLong(now)} THEN NULL ELSE ${until.getTime()} END`,
    })
    .where(and(eq(webhooks.id, webhookId), eq(webhooks.deliveryLease, lease)))
    .returning({ enabled: webhooks.enabled });

/** Lets the lease go and, in the same round trip, asks whether the endpoint still has events to deliver. */
async function release(db: Database, queries: QueryBudget, webhookId: string, lease: string): Promise<boolean> {
  queries.used += 2;
  const [, still] = await db.batch([
    db
      .update(webhooks)
      .set({ deliveryLease: null, deliveringUntil: null })
      .where(and(eq(webhooks.id, webhookId), eq(webhooks.deliveryLease, lease))),
    db
      .select({ id: webhooks.id })
      .from(webhooks)
      .where(and(eq(webhooks.id, webhookId), isNull(webhooks.deletedAt), eq(webhooks.enabled, true), pendingEvents())),
  ]);
  return still.length > 0;
}

/**
 * Delivers an endpoint's pending events under its delivery lease. A wake-up that finds the lease held by another
 * wake-up returns at once: the holder looks for pending events after letting the lease go (and claims it again if
 * there are), so an event written while it delivered is not left behind. After a retryable failure the endpoint
 * stays leased until the retry is due: a wake-up meanwhile sends nothing and comes back then. Answers when to come
 * back: `retryInSeconds` after a retryable failure or during its backoff (the queue message is retried then), `more`
 * when its time (TIME_BUDGET_MS) or the invocation's D1 queries (`given.queries`) ran out with events still pending.
 */
export async function deliverPending(
  given: DeliveryDeps,
  webhookId: string,
): Promise<{ retryInSeconds?: number; more?: boolean; disabled?: boolean }> {
  const { db } = given;
  const queries = given.queries ?? newQueryBudget();
  const started = Date.now();
  // The invocation's earlier wake-ups spent its queries: a new queue message delivers in a fresh invocation.
  if (outOfBudget(started, queries)) return { more: true };
  // The endpoint's organization's time: a sandbox's test clock (data/clock), read once per wake-up.
  if (!given.now) queries.used += 1;
  const offset = given.now ? 0 : await clockOffsetOfWebhook(db, webhookId);
  const deps = { ...given, now: given.now ?? (() => shiftedNow(offset)) };
  const lease = newId();
  for (;;) {
    const now = deps.now();
    const { hook, backoffUntil, frozen: moving, replays } = await claim(db, queries, webhookId, lease, now);
    if (moving) return frozenRetry;
    if (backoffUntil) return { retryInSeconds: queueDelay(Math.ceil((backoffUntil.getTime() - now.getTime()) / 1000)) };
    if (!hook) return {};
    if (!(await sendReplays(deps, queries, hook, replays))) return frozenRetry;
    const outcome = await deliverLeased(deps, queries, hook, lease, started);
    if (outcome.retryInSeconds !== undefined) return outcome;
    const more = await release(db, queries, webhookId, lease);
    if (outcome.disabled) return { disabled: true };
    if (!more) return {};
    if (outOfBudget(started, queries)) return { more: true };
  }
}
