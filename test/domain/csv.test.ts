import { describe, expect, it } from "vitest";
import { type CsvColumn, csvField, csvHeader, csvRecord, parseCsv } from "@/domain/csv";

describe("csvField", () => {
  it("quotes fields with commas, quotes, CR or LF and doubles the quotes (RFC 4180)", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\r")).toBe('"cr\r"');
  });

  it("writes numbers and booleans as they are and null as empty", () => {
    expect(csvField(-240)).toBe("-240");
    expect(csvField(7.5)).toBe("7.5");
    expect(csvField(true)).toBe("true");
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
  });

  it("guards text fields that a spreadsheet would run as a formula, but not numbers", () => {
    expect(csvField('=HYPERLINK("x")', { text: true })).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField("+1 555", { text: true })).toBe("'+1 555");
    expect(csvField("@sum", { text: true })).toBe("'@sum");
    expect(csvField("-5", { text: true })).toBe("'-5");
    expect(csvField(-5, { text: true })).toBe("-5");
    expect(csvField("Ada", { text: true })).toBe("Ada");
  });
});

describe("records and parsing", () => {
  const columns: CsvColumn<{ name: string; n: number }>[] = [
    { header: "name", value: (r) => r.name, text: true },
    { header: "n", value: (r) => r.n },
  ];

  it("ends every record with CRLF and parses back to the same fields", () => {
    const rows = [
      { name: 'O"Brien, Pat', n: 1 },
      { name: "multi\r\nline", n: 2 },
      { name: "", n: 3 },
    ];
    const text = csvHeader(columns) + rows.map((r) => csvRecord(columns, r)).join("");
    expect(text.endsWith("\r\n")).toBe(true);
    expect(parseCsv(text)).toEqual([
      ["name", "n"],
      ['O"Brien, Pat', "1"],
      ["multi\r\nline", "2"],
      ["", "3"],
    ]);
  });

  it("guards a text column's header as its values: a name users chose", () => {
    expect(csvHeader([{ header: "=cmd", value: () => null, text: true }, ...columns])).toBe("'=cmd,name,n\r\n");
  });

  it("ends a record at CRLF only: a lone CR or LF outside quotes stays in its field", () => {
    expect(parseCsv("a\rb,c\r\nd\ne\r\n")).toEqual([["a\rb", "c"], ["d\ne"]]);
  });

  it("parses an empty text to no records", () => {
    expect(parseCsv("")).toEqual([]);
  });

  it("keeps a last record without its CRLF, an empty last field included", () => {
    expect(parseCsv("a,b\r\nc,d")).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    expect(parseCsv("a,")).toEqual([["a", ""]]);
    expect(parseCsv('"x"')).toEqual([["x"]]);
  });
});
