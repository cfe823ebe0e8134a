import { createMiddleware } from "hono/factory";
import type { Database } from "@/data/client";
import { RequestDatabases, type SentBookmark } from "@/data/sessions";
import { DIRECTORY_SHARD, shardConfig } from "@/data/shards";
import { type AppBindings, type AppContext, setAnsweredHeader } from "@/platform/http/env";
import { flagsOf, operationIdOf } from "@/platform/routes/define-route";
import { badRequest } from "@/problems/problem";

export const BOOKMARK_HEADER = "X-D1-Bookmark";

/**
 * What this API returns: `<shard>:<D1 bookmark>`, the D1 bookmark being four hyphen-separated hex fields (D1 orders
 * them as strings; a local D1 accepts anything). A bookmark without its shard is one from before sharding: DB's.
 */
const BOOKMARK = /^(?:([A-Za-z_][A-Za-z0-9_]*):)?([0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32})$/i;

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

const base = <E extends AppBindings>(c: AppContext<E>) => c as unknown as AppContext;

function sentBookmark(header: string | undefined): SentBookmark | undefined {
  if (header === undefined) return undefined;
  const match = BOOKMARK.exec(header);
  if (!match) {
    throw badRequest("INVALID_D1_BOOKMARK", `${BOOKMARK_HEADER} must be a bookmark this API returned in that header.`, [
      { path: BOOKMARK_HEADER, message: "not a D1 bookmark" },
    ]);
  }
  return { shard: match[1] ?? DIRECTORY_SHARD, bookmark: match[2]! };
}

/**
 * The one place requests get their databases. Reads (GET/HEAD) start at the nearest replica, writes at the primary.
 * Punches read on a replica too: their write batch re-checks every guard on the primary, so a stale read fails the
 * batch with the precise 409 instead of writing. Until `organizationDatabase` routes the request, its database is
 * DB (which also holds the directory, partner-level Idempotency-Key records included). Every response carries the
 * bookmark of the database its queries ran on.
 */
export const database = createMiddleware<AppBindings>(async (c, next) => {
  const header = c.req.header(BOOKMARK_HEADER);
  const sent = sentBookmark(header);
  shardConfig(c.env); // a misconfigured SHARDS fails every request loudly, never misroutes one
  const databases = new RequestDatabases(c.env, sent, () =>
    READS.has(c.req.method) || flagsOf(c).punch ? "first-unconstrained" : "first-primary",
  );
  databases.audit.operationId = operationIdOf(c);
  databases.audit.ipCountry = countryOf(c.req.raw);
  c.set("databases", databases);
  c.set("shard", DIRECTORY_SHARD);
  c.set("db", databases.of(DIRECTORY_SHARD));
  await next();
  const bookmark = databases.bookmark(header);
  if (bookmark) setAnsweredHeader(c, BOOKMARK_HEADER, bookmark);
});

/** The caller's country as Cloudflare's edge located its IP (`request.cf.country`), if any. */
export function countryOf(request: Request): string | null {
  const country = (request as { cf?: { country?: unknown } }).cf?.country;
  return typeof country === "string" && /^[A-Z0-9]{2}$/.test(country) ? country : null;
}

/** Makes `shard` the request's database: `c.var.db`, and the bookmark the response returns. */
export function routeTo<E extends AppBindings>(context: AppContext<E>, shard: string): Database {
  const c = base(context);
  const databases = c.var.databases;
  databases.answering = shard;
  c.set("shard", shard);
  const db = databases.of(shard);
  c.set("db", db);
  return db;
}

/** This request's session on `shard` without routing the request there (a listing's other shards, the directory). */
export function databaseOf<E extends AppBindings>(context: AppContext<E>, shard: string): Database {
  const c = base(context);
  return shard === c.var.shard ? c.var.db : c.var.databases.of(shard);
}

/**
 * Routes the request to the shard the directory names for `organizationId`: answers its database, or null when the
 * directory has no such organization. The public token exchange uses it.
 */
export async function routeToOrganization<E extends AppBindings>(c: AppContext<E>, organizationId: string): Promise<Database | null> {
  const shard = await c.var.databases.shardOf(organizationId);
  return shard === null ? null : routeTo(c, shard);
}

/**
 * After `authenticate`: an organization's token runs every query on its organization's shard, chosen here once per
 * request; a partner-level token stays on DB. Tokens are issued only for organizations in the directory, whose entry
 * outlives a soft delete: one without an entry means a broken directory, which fails loudly instead of misrouting.
 */
export const organizationDatabase = createMiddleware<AppBindings>(async (c, next) => {
  const { organizationId } = c.var.principal;
  if (organizationId !== null) {
    const shard = await c.var.databases.shardOf(organizationId);
    if (shard === null) throw new Error(`organization ${organizationId} has no directory entry`);
    routeTo(c, shard);
  }
  await next();
});
