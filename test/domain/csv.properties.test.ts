import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CsvColumn, csvHeader, csvRecord, parseCsv } from "@/domain/csv";

interface Row {
  id: string;
  name: string | null;
  minutes: number;
  paid: boolean;
}

const COLUMNS: CsvColumn<Row>[] = [
  { header: "id", value: (r) => r.id },
  { header: "name", value: (r) => r.name, text: true },
  { header: "minutes", value: (r) => r.minutes },
  { header: "paid", value: (r) => r.paid },
];

/** Text with every character CSV and spreadsheets care about, often. */
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom(",", '"', "\r", "\n", "\r\n", "=", "+", "-", "@", "\t", " ", "'"),
    fc.string({ minLength: 1, maxLength: 1 }),
    fc.constantFrom("é", "日", "😀"),
  ),
});
const row = fc.record({ id: text, name: fc.option(text), minutes: fc.integer({ min: -100_000, max: 100_000 }), paid: fc.boolean() });

/** What a user's text reads as in the file: a cell a spreadsheet would run as a formula starts with an apostrophe. */
const guarded = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

describe("CSV (properties)", () => {
  it("every record parses back to its row: same number of fields, same values, one record per row", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 20 }), (rows) => {
        const file = csvHeader(COLUMNS) + rows.map((r) => csvRecord(COLUMNS, r)).join("");
        const [header, ...records] = parseCsv(file);
        expect(header).toEqual(["id", "name", "minutes", "paid"]);
        expect(records).toEqual(rows.map((r) => [r.id, r.name === null ? "" : guarded(r.name), String(r.minutes), String(r.paid)]));
      }),
      { numRuns: 200 },
    );
  });

  it("a field is quoted exactly when it holds a comma, quote, CR or LF, and its quotes are doubled", () => {
    fc.assert(
      fc.property(text, (value) => {
        const written = csvRecord([{ header: "v", value: () => value }], null).slice(0, -2);
        if (/[",\r\n]/.test(value)) expect(written).toBe(`"${value.replaceAll('"', '""')}"`);
        else expect(written).toBe(value);
      }),
      { numRuns: 200 },
    );
  });
});
