import type { webhooks } from "@db/schema";
import { Webhook } from "standardwebhooks";
import type { Database } from "@/data/client";
import { decryptSecret } from "./secret";

/** How long one POST may take before it counts as failed. */
export const TIMEOUT_MS = 10_000;

type WebhookRow = typeof webhooks.$inferSelect;

export interface DeliveryDeps {
  db: Database;
  secretKey: string | undefined;
  fetch: (request: Request) => Promise<Response>;
  /** The organization's time (a sandbox's test clock): when attempts are recorded and retries fall due. */
  now?: () => Date;
  /**
   * The D1 queries the invocation's wake-ups have sent and may send (src/jobs/webhook-delivery.ts,
   * DELIVERY_QUERIES_PER_INVOCATION), shared by the messages of one queue batch. A wake-up without one gets its own.
   */
  queries?: QueryBudget;
}

/** Statements sent to D1 (a batch's each) against a share of D1's 1,000 queries an invocation. */
export interface QueryBudget {
  used: number;
  limit: number;
}

export interface Attempt {
  status: number | null;
  durationMs: number;
  error: string | null;
}

/** POSTs one event, signed per Standard Webhooks (webhook-id = the event's id: receivers de-duplicate on it). */
export async function send(deps: DeliveryDeps, url: string, signer: Webhook, event: { id: string }): Promise<Attempt> {
  const body = JSON.stringify(event);
  // Signed at the real time, a sandbox's too: receivers check the timestamp against their own clock.
  const now = new Date();
  const headers = {
    "content-type": "application/json",
    "user-agent": "Shiftline-Webhooks/1.0",
    "webhook-id": event.id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": signer.sign(event.id, now, body),
  };
  const started = Date.now();
  try {
    const response = await deps.fetch(
      new Request(url, { method: "POST", headers, body, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "manual" }),
    );
    await response.body?.cancel();
    return { status: response.status, durationMs: Date.now() - started, error: null };
  } catch (error) {
    return {
      status: null,
      durationMs: Date.now() - started,
      error: error instanceof Error ? error.message.slice(0, 500) : "network error",
    };
  }
}

export const signerOf = async (deps: DeliveryDeps, hook: WebhookRow) =>
  new Webhook(await decryptSecret(deps.secretKey, hook.id, hook.secret));

/** One signed POST of an event to an endpoint (the test route's, outside the outbox). */
export const post = async (deps: DeliveryDeps, hook: WebhookRow, event: { id: string }) =>
  send(deps, hook.url, await signerOf(deps, hook), event);
