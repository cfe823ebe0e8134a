import { events } from "@db/schema";
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { Database } from "@/data/client";

/** The organization's events after sequence `after`, of these types, in order: `limit + 1` (the extra tells more remain). */
export const eventsAfter = (db: Database, organizationId: string, query: { after: number; types?: string[]; limit: number }) =>
  db
    .select()
    .from(events)
    .where(
      and(
        eq(events.organizationId, organizationId),
        gt(events.sequence, query.after),
        query.types ? inArray(events.type, query.types) : undefined,
      ),
    )
    .orderBy(asc(events.sequence))
    .limit(query.limit + 1);
