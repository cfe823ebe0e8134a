import { env } from "cloudflare:test";
import { webhooks } from "@db/schema";
import type { Database } from "@/data/client";
import { newId } from "@/data/ids";
import { encryptSecret, newSigningSecret } from "@/webhook-delivery/secret";

/** A webhook endpoint inserted straight into `db` (no API write, so no drain runs behind the test's back). */
export async function insertEndpoint(
  db: Database,
  organizationId: string,
  { url = "https://receiver.test/hook", types = [] as string[] } = {},
) {
  const id = newId();
  const secret = newSigningSecret();
  const now = new Date();
  await db.insert(webhooks).values({
    id,
    organizationId,
    url,
    types,
    secret: await encryptSecret(env.WEBHOOK_SECRET_KEY, id, secret),
    deliveredSequence: 0,
    createdAt: now,
    updatedAt: now,
  });
  return { id, secret };
}
