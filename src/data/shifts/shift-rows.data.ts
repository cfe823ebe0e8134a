import { shiftBreaks, shifts } from "@db/schema";
import { getTableColumns } from "drizzle-orm";
import { chunk, rowsPerStatement } from "@/data/chunk";
import type { Database } from "@/data/client";
import type { ShiftBreakRow, ShiftRow } from "@/wire/shift.schemas";

/** Rows per multi-row INSERT that keep every column's parameter within D1's 100 bound parameters. */
export const SHIFT_ROWS_PER_STATEMENT = rowsPerStatement(Object.keys(getTableColumns(shifts)).length);
export const BREAK_ROWS_PER_STATEMENT = rowsPerStatement(Object.keys(getTableColumns(shiftBreaks)).length);

/** INSERT statements for many shifts (seeding, imports): batch them, or run them one by one. */
export const insertShiftStatements = (db: Database, rows: readonly ShiftRow[]) =>
  chunk(rows, SHIFT_ROWS_PER_STATEMENT).map((part) => db.insert(shifts).values(part));

export const insertBreakStatements = (db: Database, rows: readonly ShiftBreakRow[]) =>
  chunk(rows, BREAK_ROWS_PER_STATEMENT).map((part) => db.insert(shiftBreaks).values(part));
