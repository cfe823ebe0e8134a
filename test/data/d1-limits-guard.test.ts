import { describe, expect, it } from "vitest";
import { checkStatement, D1_LIMITS, functionCalls } from "@/data/d1-limits";

const list = (n: number, item = (i: number) => String(i)) => Array.from({ length: n }, (_, i) => item(i)).join(", ");

describe("functionCalls", () => {
  it.each([
    ["SELECT count(*) FROM t", [{ name: "count", args: 1 }]],
    ["SELECT random()", [{ name: "random", args: 0 }]],
    ["SELECT coalesce(a, b, 3)", [{ name: "coalesce", args: 3 }]],
    // The commas of a nested call or of parentheses count at their own depth.
    [
      "SELECT json_object('a', max(x, y), 'b', (1, 2))",
      [
        { name: "max", args: 2 },
        { name: "json_object", args: 4 },
      ],
    ],
    ["SELECT substr ( name , 1 , 2 ) FROM t", [{ name: "substr", args: 3 }]],
    // Commas inside string literals, quoted names and comments are not arguments.
    ["SELECT coalesce('a, b', \"c,d\", `e,f`, [g,h]) -- f(1, 2)", [{ name: "coalesce", args: 4 }]],
    ["SELECT coalesce('it''s, here', 1) /* g(1, 2, 3) */", [{ name: "coalesce", args: 2 }]],
    // Not calls: IN lists, VALUES rows, column lists of INSERT and CREATE TABLE, a CTE's columns, OVER, EXISTS.
    ["SELECT 1 FROM t WHERE id IN (?, ?, ?) AND EXISTS (SELECT 1)", []],
    ['INSERT INTO "t" ("a", "b") VALUES (?, ?), (?, ?)', []],
    ["INSERT INTO t (a, b, c) VALUES (1, 2, 3)", []],
    ["CREATE TABLE IF NOT EXISTS t (a, b, c)", []],
    ["WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) SELECT i FROM n", []],
    ["WITH a(x, y) AS (SELECT 1, 2), b(z, w) AS (SELECT 3, 4) SELECT * FROM a, b", []],
    ["SELECT row_number() OVER (PARTITION BY a, b ORDER BY c) FROM t", [{ name: "row_number", args: 0 }]],
    ["SELECT * FROM json_each(?)", [{ name: "json_each", args: 1 }]],
    [
      "SELECT cast(x AS integer), count(*) AS n FROM t",
      [
        { name: "cast", args: 1 },
        { name: "count", args: 1 },
      ],
    ],
  ])("%s", (sql, calls) => {
    expect(functionCalls(sql)).toEqual(calls);
  });

  it("counts a call of many arguments", () => {
    expect(functionCalls(`SELECT json_array(${list(40)})`)).toEqual([{ name: "json_array", args: 40 }]);
  });
});

describe("checkStatement", () => {
  it("passes a statement at every limit", () => {
    const sql = `SELECT json_array(${list(D1_LIMITS.functionArguments, () => "?")})`;
    const values = Array.from({ length: D1_LIMITS.functionArguments }, () => "x");
    expect(checkStatement(sql, values)).toBeNull();
    expect(checkStatement("SELECT ?", ["x".repeat(D1_LIMITS.valueBytes)])).toBeNull();
    expect(checkStatement(`SELECT 1 ${" ".repeat(D1_LIMITS.sqlBytes - 9)}`)).toBeNull();
    expect(
      checkStatement(
        "SELECT 1",
        Array.from({ length: D1_LIMITS.boundParameters }, () => 1),
      ),
    ).toBeNull();
  });

  it("names the bound parameters over 100", () => {
    expect(
      checkStatement(
        "SELECT 1",
        Array.from({ length: 101 }, () => 1),
      ),
    ).toEqual({ limit: "boundParameters", max: 100, actual: 101 });
  });

  it("names SQL over 100,000 bytes, counted in UTF-8", () => {
    expect(checkStatement(`SELECT 1 ${" ".repeat(100_000 - 8)}`)).toMatchObject({ limit: "sqlBytes", actual: 100_001 });
    expect(checkStatement(`SELECT '${"é".repeat(50_000)}'`)).toMatchObject({ limit: "sqlBytes", actual: 100_009 });
  });

  it("names a bound value over 2,000,000 bytes, a string in UTF-8 or a blob", () => {
    expect(checkStatement("SELECT ?, ?", [1, "é".repeat(1_000_001)])).toEqual({
      limit: "valueBytes",
      max: 2_000_000,
      actual: 2_000_002,
      detail: "value 2",
    });
    expect(checkStatement("SELECT ?", [new Uint8Array(2_000_001)])).toMatchObject({ limit: "valueBytes", actual: 2_000_001 });
    expect(checkStatement("SELECT ?", [new ArrayBuffer(2_000_001)])).toMatchObject({ limit: "valueBytes" });
  });

  it("names a function called with more than 32 arguments", () => {
    expect(checkStatement(`SELECT coalesce(1, max(${list(33)}))`)).toEqual({
      limit: "functionArguments",
      max: 32,
      actual: 33,
      detail: "max",
    });
    // 33 values in an IN list or a VALUES row are not a call.
    expect(checkStatement(`SELECT 1 WHERE 1 IN (${list(33)})`)).toBeNull();
  });
});
