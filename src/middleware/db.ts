import { createMiddleware } from "hono/factory";
import { createDatabase } from "../lib/db";
import { badRequest } from "../lib/problem";
import type { AppBindings } from "../lib/types";
import { isPunch } from "./rate-limit";

export const BOOKMARK_HEADER = "X-D1-Bookmark";

/** D1's bookmark: four hyphen-separated hex fields (D1 orders them as strings; a local D1 accepts anything). */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/i;

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The one place requests get their D1 session. A client's bookmark anchors it (it then reads at least what that
 * bookmark saw: its own writes); otherwise reads start at the nearest replica and writes at the primary. Punches
 * read on a replica too: their write batch re-checks every guard on the primary, so a stale read fails the batch
 * with the precise 409 instead of writing. Every response carries the session's latest bookmark.
 */
export const database = createMiddleware<AppBindings>(async (c, next) => {
  const sent = c.req.header(BOOKMARK_HEADER);
  if (sent !== undefined && !BOOKMARK.test(sent)) {
    throw badRequest("INVALID_D1_BOOKMARK", `${BOOKMARK_HEADER} must be a bookmark this API returned in that header.`, [
      { path: BOOKMARK_HEADER, message: "not a D1 bookmark" },
    ]);
  }
  const anchor = sent ?? (READS.has(c.req.method) || isPunch(c) ? "first-unconstrained" : "first-primary");
  // Opened on the first query: a request that never reads (the OpenAPI document, a refusal) touches no binding.
  let session: D1DatabaseSession | undefined;
  const open = () => (session ??= c.env.DB.withSession(anchor));
  c.set(
    "db",
    createDatabase({
      prepare: (sql) => open().prepare(sql),
      batch: (statements) => open().batch(statements),
      getBookmark: () => session?.getBookmark() ?? null,
    }),
  );
  await next();
  const bookmark = session?.getBookmark() ?? sent;
  if (bookmark) c.header(BOOKMARK_HEADER, bookmark);
});
