import { webhooks } from "@db/schema";
import { sql } from "drizzle-orm";

/**
 * On a `webhooks` row: something to deliver. An event of its organization after its cursor that it subscribes to (no
 * types: all; events of other types past the cursor do not count, or an endpoint filtering them would be woken for
 * them forever), or a replay asked for and not yet made (webhook_deliveries `pending`, found by its partial index).
 */
export const pendingEvents = () =>
  sql`(EXISTS (SELECT 1 FROM events e WHERE e.organization_id = ${webhooks.organizationId} AND e.sequence > ${webhooks.deliveredSequence}
    AND (${webhooks.types} = '[]' OR e.type IN (SELECT value FROM json_each(${webhooks.types}))))
    OR EXISTS (SELECT 1 FROM webhook_deliveries r WHERE r.webhook_id = ${webhooks.id} AND r.status = 'pending'))`;
