import fc from "fast-check";
import { exampleValue, type OpenApiDocument, type Parameter, resolve, type Schema, type WalkedOperation } from "./openapi-walk";
import { rruleGarbage } from "./rrule-arbitraries";

/** Strings that have broken APIs: traversal, SQL, NUL, lone surrogates, RTL marks, LIKE metacharacters, dates. */
const NASTY = [
  " ",
  "\u0000",
  "a\u0000b",
  "../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "%00",
  "%2e%2e%2f",
  "' OR '1'='1",
  "1; DROP TABLE organizations; --",
  '" OR 1=1 --',
  "%",
  "_",
  "%_%\\",
  "\\",
  "😀".repeat(60),
  "𝕳𝖊𝖑𝖑𝖔 ﷽ ",
  "\u202Eevil",
  "\uFEFF",
  "\uD800",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-0",
  "1e309",
  "0x10",
  "true",
  "[]",
  "{}",
  "<script>alert(1)</script>",
  "${7*7}",
  "x".repeat(10_000),
  "é".repeat(4_000),
  "2024-02-30",
  "2024-13-45",
  "0000-00-00",
  "9999-12-31T23:59:60Z",
  "-271821-04-20T00:00:00Z",
  "+275760-09-13T00:00:00.001Z",
  "2024-01-01T00:00:00+25:00",
  "2026-03-01T25:61:61Z",
  "1970-01-01",
  "2026-03-14T13:02:00Z",
  "9999-12-31",
  "9999-12-31T10:00:00Z",
  "0000-01-01T00:00:00Z",
  "10000-01-01T00:00:00Z",
  "2025-02-30T10:00:00Z",
  "1969-12-31T23:59:59Z",
  "2201-01-01",
];

const NASTY_NUMBERS = [0, -1, 1.5, -0.000001, 1e308, -1e308, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 5e-324, Number.MAX_SAFE_INTEGER];

export const nastyString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

const nastyNumber = fc.oneof(fc.constantFrom(...NASTY_NUMBERS), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer());

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 2, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.integer({ min: 20, max: 2_000 }).map(deepArray) },
);

function deepArray(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** Marks a number JSON cannot hold; the body text gets `1e999` (parsed as Infinity) in its place. */
const INFINITY_MARK = "__fuzz_infinity__";

type JsonType = "string" | "integer" | "number" | "boolean" | "null" | "array" | "object";

const jsonType = (value: unknown): JsonType =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "array"
      : typeof value === "number"
        ? Number.isInteger(value)
          ? "integer"
          : "number"
        : (typeof value as JsonType);

/** The JSON types a schema admits, or null when it admits anything (no type to break). */
function allowedTypes(document: OpenApiDocument, raw: Schema): Set<JsonType> | null {
  const schema = resolve(document, raw);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const union = new Set<JsonType>();
    for (const alternative of alternatives as Schema[]) {
      const types = allowedTypes(document, alternative);
      if (!types) return null;
      types.forEach((t) => union.add(t));
    }
    return union;
  }
  if (schema.enum) return new Set((schema.enum as unknown[]).map(jsonType));
  if (schema.type === undefined) return null;
  const types = new Set<JsonType>(Array.isArray(schema.type) ? schema.type : [schema.type]);
  if (types.has("number")) types.add("integer");
  return types;
}

/** A schema of RFC 5545 RRULE text (its example, or an alternative's, starts with FREQ=). */
function isRecurrence(document: OpenApiDocument, raw: Schema): boolean {
  const schema = resolve(document, raw);
  if (typeof schema.example === "string" && /^FREQ=/.test(schema.example)) return true;
  return ((schema.anyOf ?? schema.oneOf ?? []) as Schema[]).some((alternative) => isRecurrence(document, alternative));
}

const WRONG_TYPED: unknown[] = ["not-of-this-type", 12345, 1.5, true, null, [1, "two"], { nested: { deeper: true } }];

/** Values no validator following the schema can accept, or none when that cannot be guaranteed. */
export function invalidValues(document: OpenApiDocument, raw: Schema): fc.Arbitrary<unknown> | null {
  const schema = resolve(document, raw);
  const allowed = allowedTypes(document, schema);
  if (!allowed) return null;
  const options: fc.Arbitrary<unknown>[] = [];
  const wrong = WRONG_TYPED.filter((v) => !allowed.has(jsonType(v)));
  if (wrong.length > 0) options.push(fc.constantFrom(...wrong));
  if (isRecurrence(document, schema)) options.push(rruleGarbage);
  if (!schema.anyOf && !schema.oneOf) {
    if (schema.enum) {
      options.push(nastyString.filter((s) => !(schema.enum as unknown[]).includes(s)).map((s) => `NOT_AN_ENUM_VALUE${s}`));
    }
    if (typeof schema.maxLength === "number") {
      options.push(fc.integer({ min: 1, max: 50 }).map((extra) => "x".repeat(schema.maxLength + extra)));
    }
    if (typeof schema.minLength === "number" && schema.minLength > 0) options.push(fc.constant(""));
    if (schema.format === "date-time" || schema.format === "date") {
      options.push(fc.constantFrom("2026-13-45T99:99:99Z", "not-a-date", "2026-13-01", "yesterday"));
    }
    if (typeof schema.maximum === "number") options.push(fc.constantFrom(schema.maximum + 1, schema.maximum * 2 + 1e6));
    if (typeof schema.minimum === "number") options.push(fc.constantFrom(schema.minimum - 1, schema.minimum - 1e6));
    if (allowed.has("integer") && !allowed.has("number")) options.push(fc.constant(1.5));
    if (typeof schema.maxItems === "number" && schema.maxItems < 2_000) {
      options.push(fc.constant(Array.from({ length: schema.maxItems + 1 }, () => "x")));
    }
    if (typeof schema.minItems === "number" && schema.minItems > 0) options.push(fc.constant([]));
    if (allowed.has("object") && schema.properties) {
      const invalidObject = invalidObjectBody(document, schema);
      if (invalidObject) options.push(invalidObject);
    }
  }
  return options.length > 0 ? fc.oneof(...options) : null;
}

/** Any value for a property: often its example or a nasty one, so weird content rides along an invalid field. */
function looseValue(document: OpenApiDocument, raw: Schema): fc.Arbitrary<unknown> {
  const schema = resolve(document, raw);
  const options: fc.Arbitrary<unknown>[] = [nastyValue];
  if (schema.example !== undefined) options.push(fc.constant(schema.example));
  if (schema.enum) options.push(fc.constantFrom(...(schema.enum as unknown[])));
  return fc.oneof(...options);
}

/** An object of the schema's properties (any subset, loose values) made invalid by at least one change. */
function invalidObjectBody(document: OpenApiDocument, schema: Schema): fc.Arbitrary<Record<string, unknown>> | null {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  const required = (schema.required ?? []) as string[];
  const breakers: fc.Arbitrary<(body: Record<string, unknown>) => void>[] = [];
  if (required.length > 0) breakers.push(fc.constantFrom(...required).map((name) => (body) => void delete body[name]));
  for (const [name, property] of properties) {
    const invalid = invalidValues(document, property);
    if (invalid) breakers.push(invalid.map((value) => (body) => void (body[name] = value)));
  }
  if (breakers.length === 0) return null;
  const loose = fc.record(Object.fromEntries(properties.map(([name, property]) => [name, looseValue(document, property)])), {
    requiredKeys: [],
  });
  const extraKey = fc.oneof(
    fc.constantFrom("__proto__", "constructor", "prototype"),
    nastyString.filter((k) => k.length < 200),
  );
  const extras = fc.dictionary(extraKey, nastyValue, { maxKeys: 3 });
  return fc.tuple(loose, extras, fc.array(fc.oneof(...breakers), { minLength: 1, maxLength: 3 })).map(([body, extra, breaks]) => {
    const mutated: Record<string, unknown> = { ...extra, ...body };
    for (const breakBody of breaks) breakBody(mutated);
    return mutated;
  });
}

export interface FuzzBody {
  text: string;
  contentType: string;
}

const asJson = (value: unknown): FuzzBody => ({
  text: JSON.stringify(value).replaceAll(`"${INFINITY_MARK}"`, "1e999"),
  contentType: "application/json",
});

const rawBodies = fc.constantFrom<FuzzBody>(
  { text: '{"unterminated": ', contentType: "application/json" },
  { text: "{'single': 'quotes'}", contentType: "application/json" },
  { text: "", contentType: "application/json" },
  { text: "\u0000", contentType: "application/json" },
  { text: "[".repeat(100_000), contentType: "application/json" },
  { text: `${"[".repeat(5_000)}${"]".repeat(5_000)}`, contentType: "application/json" },
  { text: `[${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}]`, contentType: "application/json" },
  { text: `{"name": "${"x".repeat(300 * 1024)}"}`, contentType: "application/json" },
  { text: "name=x&a=1", contentType: "application/x-www-form-urlencoded" },
  { text: '{"name": "x"}', contentType: "text/plain" },
);

/**
 * A body the operation's schema refuses: a wrong type, a required field missing, a broken field, or not JSON
 * (the raw bodies are never a JSON object sent as JSON, which a lenient schema would accept).
 */
export function invalidBody(document: OpenApiDocument, schema: Schema): fc.Arbitrary<FuzzBody> {
  const options: fc.Arbitrary<FuzzBody>[] = [
    rawBodies,
    fc.constantFrom(...WRONG_TYPED.filter((v) => jsonType(v) !== "object")).map(asJson),
  ];
  const invalid = invalidValues(document, schema);
  if (invalid) options.push(invalid.map(asJson), invalid.map(asJson), invalid.map(asJson));
  // RRULE-shaped garbage in an otherwise plausible body, so it reaches the recurrence parser past the schema.
  const recurrences = Object.keys((schema.properties ?? {}) as Record<string, Schema>).filter((name) =>
    isRecurrence(document, (schema.properties as Record<string, Schema>)[name]!),
  );
  if (recurrences.length > 0) {
    const example = exampleValue(document, schema) as Record<string, unknown>;
    const garbage = fc.tuple(fc.constantFrom(...recurrences), rruleGarbage).map(([name, text]) => asJson({ ...example, [name]: text }));
    options.push(garbage, garbage, garbage);
  }
  const object = schema.properties ? invalidObjectBody(document, schema) : null;
  if (object) {
    const withInfinity = object.map((body) => {
      const numeric = Object.entries((schema.properties ?? {}) as Record<string, Schema>).find(([, p]) =>
        allowedTypes(document, p)?.has("number"),
      );
      return numeric ? { ...body, [numeric[0]]: INFINITY_MARK } : body;
    });
    options.push(object.map(asJson), object.map(asJson), withInfinity.map(asJson));
  }
  return fc.oneof(...options);
}

/** Any body, valid or not: for requests whose path already names no record. */
export function looseBody(document: OpenApiDocument, schema: Schema): fc.Arbitrary<FuzzBody> {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  const loose = fc.record(Object.fromEntries(properties.map(([name, property]) => [name, looseValue(document, property)])), {
    requiredKeys: [],
  });
  return fc.oneof(loose.map(asJson), invalidBody(document, schema));
}

/** Query values: nasty strings, schema-invalid ones, real ids, or the example. */
export function queryValue(document: OpenApiDocument, parameter: Parameter, realIds: string[]): fc.Arbitrary<string> {
  const schema = resolve(document, parameter.schema);
  const options: fc.Arbitrary<string>[] = [nastyString, nastyNumber.map(String)];
  if (schema.example !== undefined) options.push(fc.constant(String(schema.example)));
  if (schema.enum) options.push(fc.constantFrom(...(schema.enum as unknown[]).map(String)));
  if (realIds.length > 0) options.push(fc.constantFrom(...realIds));
  const invalid = invalidValues(document, schema);
  if (invalid) options.push(invalid.map((v) => (typeof v === "string" ? v : JSON.stringify(v))));
  return fc.oneof(...options);
}

/** Path values that name no record. Dot segments and empty ones are left out: URL normalisation would drop them. */
export const garbageId = nastyString.filter((s) => s.length > 0 && !/^\.+$/.test(s));

/** Keys the API accepts: for requests whose other parts must reach the handler. */
export const validIdempotencyKey = fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 40 });

export const idempotencyKey = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constant("k".repeat(300)) },
  { weight: 1, arbitrary: fc.constant("") },
);

export type { WalkedOperation };
