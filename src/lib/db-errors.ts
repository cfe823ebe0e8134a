import { conflict } from "./problem";

const isUniqueViolation = (error: unknown) =>
  error instanceof Error && /UNIQUE constraint failed/i.test(`${error.message} ${String(error.cause ?? "")}`);

/** Runs a write whose unique index may refuse it, turning that refusal into a 409. */
export async function uniquely<T>(write: Promise<T>, code: string, detail: string): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(code, detail);
    throw error;
  }
}
