import { and, eq, type SQL, type SQLWrapper } from "drizzle-orm";
import type { SQLiteInsertValue, SQLiteTable, SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import type { Database, Statement } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { newId } from "@/data/ids";
import type { EventSpec, EventType } from "@/data/outbox/outbox";
import { inOrganization, softDeleted } from "@/data/tenancy";
import { findLive, matching, type TenantRow, type TenantTable } from "@/data/tenant-records";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { type HeaderContext, ifMatchOf, nextVersion, setETag, versionCondition } from "@/platform/http/conditional";
import { keysetPage, pageResult } from "@/platform/http/pagination";
import type { ListOptions } from "@/platform/schemas/list-query";
import type { NotFoundResource } from "@/problems/codes";
import { notFound, preconditionFailed } from "@/problems/problem";

export type { TenantTable };
export { findLive };

type Row<T extends TenantTable> = TenantRow<T>;

/** What a single-record read needs of the request (a handler passes `c`). */
export type ReadContext = HeaderContext & { var: { db: Database } };

/** What a write needs of the request: its database and principal, its If-Match, and where the ETag goes. */
export type WriteContext = HeaderContext & { var: Writer };

/**
 * One keyset page of an organization's records as read: up to `query.limit + 1` rows, the extra one telling that more
 * remain (`pageResult` trims it and links the next page). Takes no request: a data module calls it.
 */
export async function readPage<T extends TenantTable>(
  db: Database,
  table: T,
  organizationId: string,
  query: ListOptions,
  ...filters: (SQL | undefined)[]
): Promise<Row<T>[]> {
  const page = keysetPage(table, query);
  return (await db
    .select()
    .from(table as SQLiteTable)
    .where(and(inOrganization(table, organizationId, { includeDeleted: query.includeDeleted }), page.where, ...filters))
    .orderBy(page.orderBy)
    .limit(page.limit)) as Row<T>[];
}

/** One keyset page of an organization's records, with the Link header set when more remain. */
export async function listPage<T extends TenantTable>(
  c: Context,
  db: Database,
  table: T,
  organizationId: string,
  query: ListOptions,
  ...filters: (SQL | undefined)[]
): Promise<Row<T>[]> {
  return pageResult(c, await readPage(db, table, organizationId, query, ...filters), query.limit);
}

/** The live record `match` picks, answered with its ETag (single-record GETs; see platform/http/conditional). */
export async function getLive<T extends TenantTable>(
  c: ReadContext,
  table: T,
  organizationId: string,
  match: string | SQL,
  resource: NotFoundResource,
): Promise<Row<T>> {
  const row = await findLive(c.var.db, table, organizationId, match, resource);
  setETag(c, row as unknown as { updatedAt: Date });
  return row;
}

/**
 * What else an update's batch writes, given the update's own condition (`where`: the live record `match` picks, at
 * the If-Match version): statements run before the update, which can apply exactly when it will, and their events
 * (after the update's own, which looks at the update's changes); `trailing`: statements after every event (the
 * first of them sees the update's own event as the last change: guardedBatch's `trailing`).
 */
export type AlsoWritten = (where: SQL) => { before: Statement[]; events: EventSpec[]; trailing?: Statement[] };

/**
 * Updates the live record `match` picks and answers it as stored, with its ETag: one batch opened by the principal
 * guard (data/write/guarded-batch), the update conditional on If-Match. When nothing matched, a conditional request reads
 * once more to tell a missing record (404) from a changed one (412).
 */
export async function updateLive<T extends TenantTable>(
  c: WriteContext,
  table: T,
  organizationId: string,
  match: string | SQL,
  values: SQLiteUpdateSetSource<T>,
  resource: NotFoundResource,
  event?: EventType,
  also?: AlsoWritten,
): Promise<T["$inferSelect"]> {
  const ifMatch = ifMatchOf(c);
  const { db } = c.var;
  const where = and(inOrganization(table, organizationId), matching(table, match), versionCondition(table.updatedAt, ifMatch))!;
  // At the organization's time (a sandbox's test clock: data/clock), as a soft delete's deletedAt.
  const now = await organizationNow({ db, principal: c.var.principal, organizationId });
  const timed = "deletedAt" in values && values.deletedAt instanceof Date ? { ...values, deletedAt: now } : values;
  const set = { ...timed, updatedAt: nextVersion(table.updatedAt, now) } as SQLiteUpdateSetSource<T>;
  const written = and(inOrganization(table, organizationId, { includeDeleted: true }), matching(table, match))!;
  const { before, events: more, trailing } = also?.(where) ?? { before: [], events: [] };
  const events: EventSpec[] = [
    ...(event ? [{ type: event, organizationId, occurredAt: now, row: { table, where: written } }] : []),
    ...more,
  ];
  const update = db.update(table).set(set).where(where).returning() as unknown as Statement;
  const statements = [...before, update] as unknown as [Statement, ...Statement[]];
  const results = await guardedBatch(c.var, statements, [], { events, trailing });
  const rows = results[before.length];
  const row = (rows as T["$inferSelect"][])[0];
  if (!row) {
    if (ifMatch.kind === "versions") {
      await findLive(db, table, organizationId, match, resource);
      throw preconditionFailed();
    }
    throw notFound(resource);
  }
  setETag(c, row as unknown as { updatedAt: Date });
  return row;
}

/** Soft-deletes the live record `match` picks (deletedAt set, active false) and answers it, or the 404 / 412. */
export const softDeleteLive = <T extends TenantTable>(
  c: WriteContext,
  table: T,
  organizationId: string,
  match: string | SQL,
  resource: NotFoundResource,
  event?: EventType,
  also?: AlsoWritten,
) => updateLive(c, table, organizationId, match, softDeleted() as SQLiteUpdateSetSource<T>, resource, event, also);

/**
 * Inserts a new record of the organization (id, timestamps and organization filled in) behind the principal guard
 * and answers it as stored, with its ETag.
 */
export async function insertRecord<T extends TenantTable>(
  c: WriteContext,
  table: T,
  organizationId: string,
  values: Omit<SQLiteInsertValue<T>, "id" | "organizationId" | "createdAt" | "updatedAt">,
  /** The event: the row as stored, or (`read`) the API's read of the new record by its id (data/outbox/outbox). */
  event?: EventType | { type: EventType; read: (id: string) => { form: string; select: SQLWrapper } },
  /**
   * Statements after the insert, given the new id (a write the record's creation causes), and their events. Each must
   * change a row whenever it runs (the record's own event reads the last statement's changes()). `trailing`: after
   * every event, so they may change nothing (guardedBatch's `trailing`).
   */
  also?: (id: string) => { after: Statement[]; events: EventSpec[]; trailing?: Statement[] },
): Promise<T["$inferSelect"]> {
  const now = await organizationNow({ db: c.var.db, principal: c.var.principal, organizationId });
  const id = newId(now.getTime());
  const insert = c.var.db
    .insert(table)
    .values({ ...values, id, organizationId, createdAt: now, updatedAt: now } as SQLiteInsertValue<T>)
    .returning();
  const events: EventSpec[] =
    event === undefined
      ? []
      : typeof event === "string"
        ? [{ type: event, organizationId, occurredAt: now, row: { table, where: eq(table.id, id) } }]
        : [{ type: event.type, organizationId, occurredAt: now, read: event.read(id) }];
  const more = also?.(id) ?? { after: [], events: [] };
  const [rows] = await guardedBatch(c.var, [insert, ...more.after], [], {
    events: [...events, ...more.events],
    trailing: more.trailing,
  });
  const row = (rows as T["$inferSelect"][])[0]!;
  setETag(c, row as unknown as { updatedAt: Date });
  return row;
}
