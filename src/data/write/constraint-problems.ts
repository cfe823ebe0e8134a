import { getTableName } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { conflict, type ProblemCode, type ProblemError } from "@/problems/problem";

/**
 * Which refusal of the database means which problem, declared by what refuses (a column a guard writes NULL into,
 * a unique index's table, a foreign key), never by a pattern over the database's message. SQLite's messages name
 * what failed: "NOT NULL constraint failed: shifts.employee_id", "UNIQUE constraint failed: shifts.employee_id, …",
 * "FOREIGN KEY constraint failed".
 */
export interface Refusal {
  /** What the database's message says of it. */
  readonly refusal: string;
}

/** A refusal and the problem it answers (read, when naming it takes a read: the balance then, say). */
export interface ConstraintProblem extends Refusal {
  readonly problem: () => ProblemError | Promise<ProblemError>;
}

export type ConstraintProblems = readonly ConstraintProblem[];

/**
 * A guard's refusal: the write put NULL into `column` (NOT NULL), the guard technique of every conditional write
 * here (data/write/guard declares each guard with its column, its SQL and its problem).
 */
export const nullInto = (column: SQLiteColumn): Refusal => ({
  refusal: `NOT NULL constraint failed: ${getTableName(column.table)}.${column.name}`,
});

/** A unique index of `table` refused a second row. */
export const whenDuplicate = (table: SQLiteTable, problem: () => ProblemError): ConstraintProblem => ({
  refusal: `UNIQUE constraint failed: ${getTableName(table)}.`,
  problem,
});

/** The unique index over exactly `columns` (in the index's order) refused a second row: for a table with several. */
export const whenDuplicateOf = (columns: readonly [SQLiteColumn, ...SQLiteColumn[]], problem: () => ProblemError): ConstraintProblem => ({
  refusal: `UNIQUE constraint failed: ${columns.map((column) => `${getTableName(column.table)}.${column.name}`).join(", ")}`,
  problem,
});

/** A foreign key refused a row whose reference is gone. */
export const REFERENCE_MISSING: Refusal = { refusal: "FOREIGN KEY constraint failed" };

const messageOf = (error: unknown): string =>
  error instanceof Error ? `${error.message} ${messageOf(error.cause)}` : error === undefined ? "" : String(error);

const refuses = (message: string, { refusal }: Refusal) => message.includes(refusal);

/** Whether the database refused `error`'s write for this reason. */
export const refusedBy = (error: unknown, ...reasons: Refusal[]) => reasons.some((reason) => refuses(messageOf(error), reason));

/** Runs a write whose constraints may refuse it, turning a known refusal into its problem. */
export async function guarded<T>(write: Promise<T>, problems: ConstraintProblems): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const message = messageOf(error);
    const match = problems.find((reason) => refuses(message, reason));
    if (match) throw await match.problem();
    throw error;
  }
}

/** Runs a write whose one unique index (e.g. a name or externalId per organization) may refuse it, as a 409. */
export const uniquely = <T>(write: Promise<T>, code: ProblemCode, detail: string): Promise<T> =>
  guarded(write, [{ refusal: "UNIQUE constraint failed:", problem: () => conflict(code, detail) }]);
