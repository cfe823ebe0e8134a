/**
 * D1's production limits that local D1 (miniflare's SQLite) does not enforce, from
 * https://developers.cloudflare.com/d1/platform/limits/ (queries per invocation: Workers Paid; the Workers limits
 * page, https://developers.cloudflare.com/workers/platform/limits/, counts D1 queries as the invocation's
 * subrequests of D1). Tests and the bench run every statement through `checkStatement` (src/data/limited-d1.ts).
 */
export const D1_LIMITS = {
  /** "Maximum bound parameters per query". */
  boundParameters: 100,
  /** "Maximum SQL statement length", in UTF-8 bytes. */
  sqlBytes: 100_000,
  /** "Maximum string, BLOB or table row size", in bytes: each bound value. */
  valueBytes: 2_000_000,
  /** "Maximum arguments per SQL function". */
  functionArguments: 32,
  /** "Queries per Worker invocation" (Workers Paid): counted statement by statement, a batch's each. */
  queriesPerInvocation: 1_000,
} as const;

export type D1LimitName = keyof typeof D1_LIMITS;

export interface D1LimitViolation {
  limit: D1LimitName;
  max: number;
  actual: number;
  /** What broke it: the function's name, or the bound value's position (1-based). */
  detail?: string;
}

export const describeViolation = ({ limit, max, actual, detail }: D1LimitViolation): string =>
  `D1 limit ${limit} exceeded: ${actual} > ${max}${detail ? ` (${detail})` : ""}`;

const encoder = new TextEncoder();

/** UTF-8 bytes of a string, encoding only when its length alone does not settle the comparison with `max`. */
const utf8Bytes = (text: string, max: number): number => (text.length * 3 <= max ? text.length : encoder.encode(text).byteLength);

const valueBytes = (value: unknown, max: number): number => {
  if (typeof value === "string") return utf8Bytes(value, max);
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (Array.isArray(value)) return value.length;
  return 0;
};

/** The first of D1's per-statement limits that a statement (its SQL and bound values) breaks, or null. */
export function checkStatement(sql: string, values: readonly unknown[] = []): D1LimitViolation | null {
  if (values.length > D1_LIMITS.boundParameters) {
    return { limit: "boundParameters", max: D1_LIMITS.boundParameters, actual: values.length };
  }
  const sqlBytes = utf8Bytes(sql, D1_LIMITS.sqlBytes);
  if (sqlBytes > D1_LIMITS.sqlBytes) return { limit: "sqlBytes", max: D1_LIMITS.sqlBytes, actual: sqlBytes };
  for (const [i, value] of values.entries()) {
    const bytes = valueBytes(value, D1_LIMITS.valueBytes);
    if (bytes > D1_LIMITS.valueBytes) return { limit: "valueBytes", max: D1_LIMITS.valueBytes, actual: bytes, detail: `value ${i + 1}` };
  }
  for (const call of functionCalls(sql)) {
    if (call.args > D1_LIMITS.functionArguments) {
      return { limit: "functionArguments", max: D1_LIMITS.functionArguments, actual: call.args, detail: call.name };
    }
  }
  return null;
}

export interface FunctionCall {
  /** The function's name as written. */
  name: string;
  /** Its arguments: the top-level commas inside its parentheses plus one, 0 for `f()`. */
  args: number;
}

/** Words that may stand before "(" without calling a function (`IN (…)`, `VALUES (…)`, `OVER (…)`, …). */
const NOT_FUNCTIONS = new Set(
  (
    "all and as between by case check conflict default distinct do else end except exists filter from group having in " +
    "intersect into is join key limit not offset on or order over primary returning select set then union unique " +
    "using values when where with"
  ).split(" "),
);
/** Words after which a name and "(" are a table's or a CTE's column list, not a call. */
const NAME_AFTER = new Set(["into", "table", "exists", "references", "with", "recursive", "view", "trigger", "index"]);
/** After a CTE's column list: `name (a, b) AS (…)`. */
const CTE_BODY = /^\s*as\s+(?:not\s+)?(?:materialized\s+)?\(/i;

interface Frame {
  name: string | null;
  commas: number;
  empty: boolean;
}

/**
 * Every SQL function call in a statement with its argument count: a small scanner, not a parser. A call is an
 * unquoted name followed by "(" that is not a keyword, a table's column list (`INSERT INTO t (…)`) or a CTE's; the
 * commas counted are those at the call's own depth, outside string literals, quoted names and comments.
 */
export function functionCalls(sql: string): FunctionCall[] {
  const calls: FunctionCall[] = [];
  const frames: Frame[] = [];
  let word: string | null = null; // the last token, when it is an unquoted name
  let previousWord: string | null = null; // the unquoted name before it
  const touch = () => {
    const top = frames.at(-1);
    if (top) top.empty = false;
  };
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end === -1 ? sql.length : end + 1;
      continue;
    }
    if (ch === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end === -1 ? sql.length : end + 2;
      continue;
    }
    const close = ch === "'" || ch === '"' || ch === "`" ? ch : ch === "[" ? "]" : null;
    if (close) {
      // A literal or a quoted name: skip it whole (a doubled quote inside is the quote itself).
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === close) {
          if (close !== "]" && sql[j + 1] === close) j += 2;
          else break;
        } else j++;
      }
      i = j + 1;
      touch();
      previousWord = word;
      word = null;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i, i + 128));
    if (name) {
      touch();
      previousWord = word;
      word = name[0];
      i += name[0].length;
      continue;
    }
    if (ch === "(") {
      const lower = word?.toLowerCase();
      const isCall = lower !== undefined && !NOT_FUNCTIONS.has(lower) && !NAME_AFTER.has(previousWord?.toLowerCase() ?? "");
      touch();
      frames.push({ name: isCall ? word : null, commas: 0, empty: true });
    } else if (ch === ")") {
      const frame = frames.pop();
      if (frame?.name && !CTE_BODY.test(sql.slice(i + 1, i + 40))) {
        calls.push({ name: frame.name, args: frame.empty ? 0 : frame.commas + 1 });
      }
    } else if (ch === ",") {
      const top = frames.at(-1);
      if (top) top.commas++;
    } else {
      touch();
    }
    previousWord = word;
    word = null;
    i++;
  }
  return calls;
}
