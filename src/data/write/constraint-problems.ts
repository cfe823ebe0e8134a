import { conflict, type ProblemCode, type ProblemError } from "@/problems/problem";

const messageOf = (error: unknown): string =>
  error instanceof Error ? `${error.message} ${messageOf(error.cause)}` : error === undefined ? "" : String(error);

/** Whether the database refused `error`'s write on a constraint whose text matches `pattern`. */
export const refusedOn = (error: unknown, pattern: RegExp) => pattern.test(messageOf(error));

/** Which database refusal means which 409: the constraint's text (e.g. "UNIQUE constraint failed: shifts.employee_id"). */
export type ConstraintProblems = [pattern: RegExp, problem: () => ProblemError][];

/** Runs a write whose constraints may refuse it, turning a known refusal into its problem. */
export async function guarded<T>(write: Promise<T>, problems: ConstraintProblems): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const message = messageOf(error);
    const match = problems.find(([pattern]) => pattern.test(message));
    if (match) throw match[1]();
    throw error;
  }
}

/** Runs a write whose unique index may refuse it, turning that refusal into a 409. */
export const uniquely = <T>(write: Promise<T>, code: ProblemCode, detail: string): Promise<T> =>
  guarded(write, [[/UNIQUE constraint failed/i, () => conflict(code, detail)]]);
