import { shiftRequests } from "@db/schema";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import type { EventSpec, EventType } from "@/data/outbox/outbox";

/**
 * A shift request is about its entries as they were when it was made: a write that changes an entry's time or worker,
 * or deletes it, ends the live requests naming it (as the entry given away or the one given back) in its own batch,
 * CANCELLED with the reason, each with its `shift_request.cancelled` event. Every write of a published entry uses
 * this, so none is forgotten.
 */

/** Why a request was cancelled: its entry changed or went, or someone cancelled it. */
export const CANCEL_REASONS = ["ENTRY_CHANGED", "ENTRY_DELETED", "REQUESTER_CANCELLED", "MANAGER_CANCELLED"] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** A SQL set of entry ids: a list, or a subquery (`SELECT id FROM schedule_entries WHERE …`) read as the batch runs. */
export type EntryIds = readonly string[] | SQL;

const idSet = (ids: EntryIds): SQL => (Array.isArray(ids) ? sql`SELECT value FROM json_each(${JSON.stringify(ids)})` : (ids as SQL));

/** The request names one of the entries, as either of its entries. */
const naming = (ids: EntryIds): SQL => {
  const set = idSet(ids);
  return sql`(${shiftRequests.scheduleEntryId} IN (${set}) OR ${shiftRequests.targetScheduleEntryId} IN (${set}))`;
};

export interface Ending {
  organizationId: string;
  /** The entries the write changes. */
  entryIds: EntryIds;
  reason: Extract<CancelReason, "ENTRY_CHANGED" | "ENTRY_DELETED">;
  /** The batch's instant: the requests' updatedAt, which picks them out for their events. */
  now: Date;
  /** Ends them only if this holds as the statement runs (e.g. the entry's times differ from what the write sets). */
  when?: SQL;
  /** A request the batch decides otherwise (an approval's own). */
  except?: string;
}

/**
 * The UPDATE ending the live requests (PENDING or ACCEPTED, not expired) naming the entries, and the events of
 * those it ended (one per request, read after the batch's writes: put the event among the batch's events).
 */
export function endRequestsOf(db: Database, ending: Ending): { statement: Statement; event: EventSpec } {
  const { organizationId, entryIds, reason, now, when, except } = ending;
  const statement = db
    .update(shiftRequests)
    .set({ status: "CANCELLED", cancelReason: reason, updatedAt: now })
    .where(
      and(
        eq(shiftRequests.organizationId, organizationId),
        sql`${shiftRequests.status} IN ('PENDING', 'ACCEPTED')`,
        sql`${shiftRequests.expiresAt} > ${now.getTime()}`,
        naming(entryIds),
        except ? sql`${shiftRequests.id} <> ${except}` : undefined,
        when,
      ),
    );
  const event: EventSpec = {
    organizationId,
    occurredAt: now,
    rows: {
      table: shiftRequests,
      where: and(
        eq(shiftRequests.organizationId, organizationId),
        eq(shiftRequests.status, "CANCELLED"),
        eq(shiftRequests.cancelReason, reason),
        eq(shiftRequests.updatedAt, now),
        naming(entryIds),
      )!,
      typeOf: sql`${"shift_request.cancelled" satisfies EventType}`,
    },
  };
  return { statement, event };
}
