import { inArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { etag } from "hono/etag";
import { badRequest, preconditionFailed } from "@/problems/problem";

/**
 * Conditional requests on single records. A record's entity tag is its updatedAt in epoch milliseconds, quoted:
 * every write of a record moves updatedAt forward (nextVersion: at least a millisecond past the stored one, even for
 * two writes within one millisecond), so the tag is a strong validator of the stored row.
 */
export const etagOf = (row: Versioned) => `"${versionOf(row)}"`;

/** A stored row (updatedAt a Date) or its wire form (an ISO 8601 string with milliseconds). */
type Versioned = { updatedAt: Date | string };

const versionOf = ({ updatedAt }: Versioned) => (typeof updatedAt === "string" ? Date.parse(updatedAt) : updatedAt.getTime());

/** The updatedAt an UPDATE sets: now, or a millisecond past the stored value when that is not earlier. */
export const nextVersion = (updatedAt: SQLiteColumn, now = new Date()): SQL => sql`max(${now.getTime()}, ${updatedAt} + 1)`;

/** The same for a write that read the row it writes (and guards that it is still that version). */
export const nextVersionAfter = (read: { updatedAt: Date }, now = new Date()) =>
  new Date(Math.max(now.getTime(), read.updatedAt.getTime() + 1));

export interface HeaderContext {
  req: { header: (name: string) => string | undefined };
  header: (name: string, value: string) => void;
}

/** Sets the ETag of the record a response carries. */
export function setETag(c: HeaderContext, row: Versioned) {
  c.header("ETag", etagOf(row));
}

/**
 * Answers 304 to a GET whose If-None-Match names the ETag the handler set (hono/etag keeps an ETag already on the
 * response instead of hashing the body). For single-record GET routes.
 */
export const conditionalGet = etag();

/** What If-Match asks: nothing, that the record exists (`*`), or that it is one of these versions (epoch ms). */
export type IfMatch = { kind: "none" } | { kind: "any" } | { kind: "versions"; versions: number[] };

/** RFC 9110 §13.1.1: `*`, or a list of entity tags; weak tags never match (strong comparison). */
export function ifMatchOf(c: HeaderContext): IfMatch {
  const header = c.req.header("If-Match");
  if (header === undefined) return { kind: "none" };
  const value = header.trim();
  if (value === "*") return { kind: "any" };
  const tags = value.split(",").map((tag) => tag.trim());
  if (tags.some((tag) => !/^(W\/)?"[^"]*"$/.test(tag))) {
    throw badRequest("INVALID_IF_MATCH", 'If-Match takes "*" or a list of quoted entity tags, e.g. If-Match: "1732283136000".');
  }
  const versions = tags.filter((tag) => /^"\d{1,15}"$/.test(tag)).map((tag) => Number(tag.slice(1, -1)));
  return { kind: "versions", versions };
}

/** The write's condition on the record's version: undefined unless If-Match names versions. */
export function versionCondition(column: SQLiteColumn, ifMatch: IfMatch): SQL | undefined {
  if (ifMatch.kind !== "versions") return undefined;
  return ifMatch.versions.length
    ? inArray(
        column,
        ifMatch.versions.map((ms) => new Date(ms)),
      )
    : sql`0`;
}

/** Whether the record is a version If-Match accepts (always, when it names none). */
export const matchesVersion = (ifMatch: IfMatch, row: Versioned) =>
  ifMatch.kind !== "versions" || ifMatch.versions.includes(versionOf(row));

/**
 * For writes that read the record and then write under a version guard of their own (timesheet shifts: the write
 * fails unless the row is still the version read), so checking If-Match against that read is checking the write.
 */
export function requireVersion(ifMatch: IfMatch, row: Versioned) {
  if (!matchesVersion(ifMatch, row)) throw preconditionFailed();
}
