import { sql } from "drizzle-orm";

/**
 * Values of the code's own (column names, JSON paths, a rule pack's bounds and rule names) written into SQL as
 * literals: they bind no parameter (D1 allows 100 a statement) and never come from a request.
 */
export const sqlText = (value: string) => sql.raw(`'${value.replaceAll("'", "''")}'`);

/** A finite number as a SQL literal. */
export const sqlNumber = (value: number) => {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  return sql.raw(String(value));
};
