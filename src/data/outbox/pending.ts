import { webhooks } from "@db/schema";
import { sql } from "drizzle-orm";

/**
 * On a `webhooks` row: an event of its organization after its cursor that it subscribes to (no types: all). Events
 * of other types past the cursor do not count, or an endpoint filtering them would be woken for them forever.
 */
export const pendingEvents = () =>
  sql`EXISTS (SELECT 1 FROM events e WHERE e.organization_id = ${webhooks.organizationId} AND e.sequence > ${webhooks.deliveredSequence}
    AND (${webhooks.types} = '[]' OR e.type IN (SELECT value FROM json_each(${webhooks.types}))))`;
