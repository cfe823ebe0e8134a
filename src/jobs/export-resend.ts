import { exports } from "@db/schema";
import { and, asc, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { inPassScope, type PassScope } from "@/data/clock";
import type { ExportMessage } from "@/features/exports/export-chunk";

/** An export QUEUED or RUNNING whose row has not moved for this long has no message working it: it is sent again. */
export const EXPORT_STALL_MS = 5 * 60 * 1000;
/** Exports sent again per shard and run (a queue's sendBatch takes at most 100 messages). */
export const RESEND_PER_RUN = 50;

/**
 * The Cron's pass over stalled exports: those still QUEUED or RUNNING whose row (`updated_at`, moved by every chunk)
 * is older than EXPORT_STALL_MS — an export whose first message was never sent (the send failed after the job was
 * committed), or whose chain of messages was lost. One conditional UPDATE claims them (moves updated_at to now, so the
 * next run leaves them alone for another EXPORT_STALL_MS) and answers which; then each gets a message. Sending again is
 * idempotent: the row says which chunk is next, and of two messages working the same chunk only one moves it on
 * (src/features/exports/export-chunk.ts). Answers the ids sent. `scope`: the live organizations at the real time
 * (sandboxes are left out), or one sandbox at its test clock's time, whose exports' rows are stamped by that clock.
 */
export async function resendStalledExports(
  db: Database,
  queue: Queue<ExportMessage>,
  now: Date,
  scope: PassScope = "live",
): Promise<string[]> {
  const cutoff = new Date(now.getTime() - EXPORT_STALL_MS);
  const stalled = and(
    inArray(exports.status, ["QUEUED", "RUNNING"]),
    lte(exports.updatedAt, cutoff),
    isNull(exports.deletedAt),
    inPassScope(sql`${exports.organizationId}`, scope),
  );
  const claimed = await db
    .update(exports)
    .set({ updatedAt: now })
    .where(
      and(
        inArray(
          exports.id,
          db.select({ id: exports.id }).from(exports).where(stalled).orderBy(asc(exports.updatedAt)).limit(RESEND_PER_RUN),
        ),
        stalled,
      ),
    )
    .returning({ id: exports.id, organizationId: exports.organizationId });
  if (claimed.length) {
    await queue.sendBatch(claimed.map((row) => ({ body: { exportId: row.id, organizationId: row.organizationId } })));
  }
  return claimed.map((row) => row.id);
}
