import { and, gte, lt, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { parseDateParam } from "@/domain/local-time";
import { invalidField } from "@/problems/problem";

export interface InstantRange {
  start: Date;
  end: Date;
}

/** startDate/endDate as the half-open instants [start, end) in the location's zone; a start after the end is 400. */
export function instantRange(startDate: string, endDate: string, timeZone: string): InstantRange {
  const start = parseDateParam(startDate, timeZone, "start");
  const end = parseDateParam(endDate, timeZone, "end");
  if (!start) throw invalidField("startDate", "must be YYYY-MM-DD or an ISO 8601 timestamp");
  if (!end) throw invalidField("endDate", "must be YYYY-MM-DD or an ISO 8601 timestamp");
  if (start.at.getTime() >= end.at.getTime()) {
    throw invalidField("endDate", "must not be before startDate");
  }
  return { start: start.at, end: end.at };
}

/** A listing's optional range filters as instants: either may be omitted; both given, as instantRange checks them. */
export function startBounds(query: { startDate?: string; endDate?: string }, timeZone: string): { start?: Date; end?: Date } {
  if (query.startDate && query.endDate) return instantRange(query.startDate, query.endDate, timeZone);
  const start = query.startDate ? parseDateParam(query.startDate, timeZone, "start") : null;
  const end = query.endDate ? parseDateParam(query.endDate, timeZone, "end") : null;
  return { start: start?.at, end: end?.at };
}

/** Optional range filters of a listing on a start column: either bound may be omitted. */
export function startsWithin(column: SQLiteColumn, query: { startDate?: string; endDate?: string }, timeZone: string): SQL | undefined {
  const { start, end } = startBounds(query, timeZone);
  return and(start ? gte(column, start) : undefined, end ? lt(column, end) : undefined);
}
