/** RFC 4180: records end with CRLF; a field holding a comma, quote, CR or LF is quoted, its quotes doubled. */
export const CSV_EOL = "\r\n";

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * Spreadsheets run a text cell that starts with = + - @ (or a tab/CR) as a formula (CSV injection). Text fields
 * taken from users (names, external ids) get a leading apostrophe, which spreadsheets show as plain text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvValue = string | number | boolean | null | undefined;

/** One field: numbers and booleans as written, null as empty; `text` fields are guarded against formulas. */
export function csvField(value: CsvValue, options: { text?: boolean } = {}): string {
  if (value === null || value === undefined) return "";
  let field = String(value);
  if (options.text && typeof value === "string" && FORMULA_START.test(field)) field = `'${field}`;
  return NEEDS_QUOTES.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
}

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvValue;
  /** Free text from users: guarded against spreadsheet formulas. */
  text?: boolean;
}

/** The header line; a `text` column's header (a name users chose) is guarded against formulas as its values are. */
export const csvHeader = <T>(columns: readonly CsvColumn<T>[]): string =>
  columns.map((c) => csvField(c.header, { text: c.text })).join(",") + CSV_EOL;

export const csvRecord = <T>(columns: readonly CsvColumn<T>[], row: T): string =>
  columns.map((c) => csvField(c.value(row), { text: c.text })).join(",") + CSV_EOL;

/** Parses RFC 4180 text into records of fields (for round-trip checks and importers). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      record.push(field);
      field = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i++;
    } else field += ch;
  }
  if (field !== "" || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}
