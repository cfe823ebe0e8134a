import { writeGuards } from "@db/schema";
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "@/data/client";
import { ProblemError, preconditionFailed } from "@/problems/problem";
import { guard } from "./guard";

/** write_guards.precondition: 1 while `condition` holds; guardedBatch maps its refusal to 412 (`orGone`: 404 when gone). */
export const preconditionHolds = guard({
  column: writeGuards.precondition,
  problem: preconditionFailed,
  sql: (condition: SQL) => sql`(SELECT 1 WHERE ${condition})`,
});

/**
 * A statement placed in a write batch before the writes it protects: it inserts NULL into the NOT NULL
 * write_guards.precondition when `condition` does not hold as the batch runs, failing the whole batch (SQLite
 * checks NOT NULL before the primary key's ON CONFLICT), else changes nothing. Same mechanism as the principal
 * guard, another column, so the failure is told apart from TOKEN_REVOKED.
 */
export const preconditionGuard = (db: Database, condition: SQL) =>
  db
    .insert(writeGuards)
    .values({ id: 1, ok: 1, precondition: preconditionHolds.sql(condition) })
    .onConflictDoNothing();

/** The condition that a row of `table` matching `where` exists (the caller puts liveness and version in `where`). */
export const rowExists = (table: SQLiteTable, where: SQL | undefined): SQL => sql`EXISTS (SELECT 1 FROM ${table} WHERE ${where ?? sql`1`})`;

const isPreconditionFailed = (error: unknown) =>
  error instanceof ProblemError && error.status === 412 && error.code === "PRECONDITION_FAILED";

/**
 * Runs a write whose precondition guard names the record's existence and version: when the guard fails, one read
 * decides whether the record is gone (`stillThere` throws its 404: usually the handler's find) or another version
 * (the 412 stands).
 */
export async function orGone<T>(write: Promise<T>, stillThere: () => Promise<unknown>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isPreconditionFailed(error)) await stillThere();
    throw error;
  }
}
