import { auditLog } from "@db/schema";
import { and, asc, eq, gt, gte, lt } from "drizzle-orm";
import type { Database } from "@/data/client";
import type { AuditLogFilters } from "./audit-log.schemas";

/** The organization's entries after sequence `after` that match the filters, in order: `limit + 1` (the extra: more remain). */
export const auditEntries = (db: Database, organizationId: string, after: number, filters: AuditLogFilters) =>
  db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.organizationId, organizationId),
        gt(auditLog.sequence, after),
        filters.resourceType ? eq(auditLog.resourceType, filters.resourceType) : undefined,
        filters.resourceId ? eq(auditLog.resourceId, filters.resourceId) : undefined,
        filters.actorId ? eq(auditLog.actorId, filters.actorId) : undefined,
        filters.staffMemberId ? eq(auditLog.staffMemberId, filters.staffMemberId) : undefined,
        filters.startTime ? gte(auditLog.at, new Date(filters.startTime)) : undefined,
        filters.endTime ? lt(auditLog.at, new Date(filters.endTime)) : undefined,
      ),
    )
    .orderBy(asc(auditLog.sequence))
    .limit(filters.limit + 1);
