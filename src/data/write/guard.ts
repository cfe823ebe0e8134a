import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { ProblemError } from "@/problems/problem";
import { type ConstraintProblem, nullInto } from "./constraint-problems";

/**
 * A check a write makes as it runs, declared in one place: the NOT NULL `column` it writes, the `sql` it writes
 * there — a value that turns NULL when the check fails, failing the statement and its whole batch with SQLite's
 * "NOT NULL constraint failed: <table>.<column>" (or, rarely, the statement writing such a NULL) — and the
 * `problem` that failure answers. A write puts `guard.sql(…)` into the column and lists the guard among its batch's
 * problems (guardedBatch); nothing else names the column or matches the database's message.
 */
export interface GuardDeclaration<Build, Problem> {
  readonly column: SQLiteColumn;
  readonly problem: Problem;
  readonly sql: Build;
}

/** A guard whose problem needs what the write knows (the dates it checked, say): `about(…)` gives its refusal. */
export interface Guard<Build, About> {
  readonly sql: Build;
  readonly about: (about: About) => ConstraintProblem;
}

/** A guard whose problem stands alone: it is its own refusal, listed as is. */
export type PlainGuard<Build> = Guard<Build, void> & ConstraintProblem;

type Answer = ProblemError | Promise<ProblemError>;

export function guard<Build>(declaration: GuardDeclaration<Build, () => Answer>): PlainGuard<Build>;
export function guard<Build, About>(declaration: GuardDeclaration<Build, (about: About) => Answer>): Guard<Build, About>;
export function guard<Build, About>({ column, problem, sql }: GuardDeclaration<Build, (about?: About) => Answer>) {
  const { refusal } = nullInto(column);
  return { sql, refusal, problem: () => problem(), about: (about: About) => ({ refusal, problem: () => problem(about) }) };
}
