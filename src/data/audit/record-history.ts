import { auditLog } from "@db/schema";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Database } from "@/data/client";

/** A record's history page: `limit + 1` entries after sequence `after` (the extra one: more remain), oldest first. */
export interface RecordHistoryPage {
  organizationId: string;
  resourceType: string;
  resourceId: string;
  /** The sequence of the last entry already served (0: from the first). */
  after: number;
  limit: number;
}

/**
 * One record's audit entries, each with its version: its place among all the record's entries (1 for the first),
 * counted over the whole history so that every page numbers alike. A query builder, to batch with other reads.
 */
export function recordHistory(db: Database, page: RecordHistoryPage) {
  const entries = db
    .select({
      sequence: auditLog.sequence,
      at: auditLog.at,
      actorType: auditLog.actorType,
      actorId: auditLog.actorId,
      deviceId: auditLog.deviceId,
      operationId: auditLog.operationId,
      beforeForm: auditLog.beforeForm,
      before: auditLog.before,
      afterForm: auditLog.afterForm,
      after: auditLog.after,
      version: sql<number>`row_number() OVER (ORDER BY ${auditLog.sequence})`.as("version"),
    })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.organizationId, page.organizationId),
        eq(auditLog.resourceType, page.resourceType),
        eq(auditLog.resourceId, page.resourceId),
      ),
    )
    .as("entries");
  return db
    .select()
    .from(entries)
    .where(gt(entries.sequence, page.after))
    .orderBy(asc(entries.sequence))
    .limit(page.limit + 1);
}

export type RecordVersionRow = Awaited<ReturnType<typeof recordHistory>>[number];
