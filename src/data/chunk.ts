import { D1_LIMITS } from "./d1-limits";

/** D1 refuses a statement that binds more than this many parameters. */
export const D1_MAX_BOUND_PARAMETERS = D1_LIMITS.boundParameters;

/** How many rows of `parametersPerRow` fit in one statement next to `reserved` other parameters. */
export function rowsPerStatement(parametersPerRow: number, reserved = 0, max = D1_MAX_BOUND_PARAMETERS): number {
  if (!Number.isInteger(parametersPerRow) || parametersPerRow < 1) throw new RangeError("parametersPerRow must be a positive integer");
  const rows = Math.floor((max - reserved) / parametersPerRow);
  if (rows < 1) throw new RangeError(`A row of ${parametersPerRow} parameters does not fit in ${max - reserved}`);
  return rows;
}

/** Consecutive slices of at most `size` items, in order; none for an empty list. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError("size must be a positive integer");
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
