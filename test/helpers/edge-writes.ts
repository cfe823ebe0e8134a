import { env } from "cloudflare:test";
import fc from "fast-check";
import { shardBinding } from "@/data/shards";
import { changes, type Snapshot, snapshot } from "./db-snapshot";
import { documentMismatch } from "./document-match";
import { type FuzzRequest, type FuzzStats, type Send, sendToWorker } from "./fuzz-harness";
import { type OpenApiDocument, resolve, type Schema, type WalkedOperation } from "./openapi-walk";
import type { RecordFixture } from "./record-fixture";
import { shardNames } from "./shards";
import { validExample, validWrite, WITHOUT_EVENT } from "./valid-writes";

/** Valid dates at the edges: the epoch, a leap day, a DST change in New York, the last day of the calendar. */
const EDGE_DATES = ["1970-01-01", "2028-02-29", "2026-03-08", "2026-11-01", "9999-12-31"];
const EDGE_INSTANTS = [
  "1970-01-01T00:00:00Z",
  "2028-02-29T23:59:59.999Z",
  "2026-03-08T07:00:00Z",
  "2026-11-01T05:30:00-05:00",
  "9999-12-31T23:59:59Z",
];
/** Body fields naming records: kept as the valid request names them (the fuzzer's other modes break those). */
const REFERENCE = /^(?!external).*Ids?$/;
const MAX_ITEMS = 200;

/** Values the property's schema accepts at its edges: lengths, bounds, counts, dates, every enum value, null. */
export function edgeValues(document: OpenApiDocument, raw: Schema, name: string): unknown[] {
  const schema = resolve(document, raw);
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return alternatives.flatMap((a) => edgeValues(document, a, name));
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const values: unknown[] = [];
  if (types.includes("null")) values.push(null);
  if (schema.enum) return [...values, ...(schema.enum as unknown[])];
  if (schema.const !== undefined) return [...values, schema.const];
  if (types.includes("string")) {
    if (schema.format === "date") values.push(...EDGE_DATES);
    else if (schema.format === "date-time") values.push(...EDGE_INSTANTS);
    else if (!schema.pattern && !schema.format) {
      const max = schema.maxLength as number | undefined;
      const min = (schema.minLength as number | undefined) ?? 0;
      if (max !== undefined) values.push("x".repeat(max), "😀".repeat(Math.floor(max / 2)), `${"é".repeat(max - 1)}\u0000`.slice(0, max));
      values.push("x".repeat(Math.max(min, 1)));
    }
  }
  if (types.includes("integer") || types.includes("number")) {
    const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
    const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
    values.push(min ?? Number.MIN_SAFE_INTEGER, max ?? Number.MAX_SAFE_INTEGER);
    if ((min ?? -1) <= 0 && (max ?? 1) >= 0) values.push(0);
  }
  if (types.includes("boolean")) values.push(true, false);
  if (types.includes("array")) {
    const item = validExample(document, schema.items ?? {}, name);
    const min = (schema.minItems as number | undefined) ?? 0;
    values.push(Array.from({ length: min }, () => item));
    if (typeof schema.maxItems === "number" && schema.maxItems <= MAX_ITEMS)
      values.push(Array.from({ length: schema.maxItems }, () => item));
  }
  return values;
}

/** Each of the body's non-reference properties with each of its edge values. */
export function edgeChanges(document: OpenApiDocument, body: Schema): [string, unknown][] {
  return Object.entries((body.properties ?? {}) as Record<string, Schema>)
    .filter(([name]) => !REFERENCE.test(name))
    .flatMap(([name, property]) => edgeValues(document, property, name).map((value): [string, unknown] => [name, value]));
}

const BOOKKEEPING = /\.(events|idempotency_keys|write_guards|webhook_deliveries|organization_directory)$/;
const DELIVERY = /\.(webhooks|webhook_deliveries)$/;
const eventCount = (rows: Snapshot) => [...rows].filter(([t]) => t.endsWith(".events")).reduce((n, [, { count }]) => n + count, 0);

/** Rows whose foreign keys name no row, on every shard. */
async function orphans(): Promise<string[]> {
  const found: string[] = [];
  for (const shard of shardNames()) {
    const { results } = await shardBinding(env, shard).prepare("PRAGMA foreign_key_check").all<{ table: string; parent: string }>();
    found.push(...results.map((r) => `${shard}.${r.table} -> ${r.parent}`));
  }
  return found;
}

/** What is wrong with an edge write's outcome: a 5xx, an undeclared answer, a refusal that wrote, a change without its event. */
export function edgeVerdict(op: WalkedOperation, status: number, text: string, contentType: string, changed: string[], evented: boolean) {
  if (status >= 500) return `answered ${status}: ${text.slice(0, 300)}`;
  const mismatch = documentMismatch(op.name, { status, text, contentType });
  if (mismatch) return mismatch;
  const records = changed.filter((table) => !BOOKKEEPING.test(table.split(":")[0]!));
  // An endpoint an earlier edge write enabled goes on delivering in the background (its deliveries, its failure count
  // and lease): outside the webhooks' own operations, that is not this write's doing.
  const own = changed.filter((table) => op.path.includes("/webhooks") || !DELIVERY.test(table.split(":")[0]!));
  if (status >= 400 && own.length > 0) return `refused with ${status} but changed ${own.join(", ")}`;
  if (status < 300 && records.length > 0 && !evented && !WITHOUT_EVENT.has(op.name))
    return `answered ${status}, changed ${records.join(", ")} and recorded no event`;
  return null;
}

/**
 * Sends the operation's valid write with one property at an edge of its schema (max lengths, bounds, zero and
 * maximum counts, edge dates): it must answer 2xx or a declared 4xx, never 5xx; a refusal changes nothing, a change
 * records its event, and no row is left naming a missing one. Rejects with the first failure.
 */
export async function edgeWrites(
  document: OpenApiDocument,
  op: WalkedOperation,
  fixture: RecordFixture,
  options: { runs: number; seed: number; send?: Send; stats?: FuzzStats },
) {
  const send = options.send ?? sendToWorker;
  const candidates = op.body ? edgeChanges(document, op.body) : [];
  if (candidates.length === 0) return;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...candidates), async ([name, value]) => {
      let prepared: Awaited<ReturnType<typeof validWrite>>;
      try {
        prepared = await validWrite(document, op, fixture);
      } catch {
        // An earlier edge write changed what this one needs (a break type it disabled): counted, not this write's fault.
        options.stats?.byMode.set(
          "edge values (unprepared)",
          new Map([[0, (options.stats.byMode.get("edge values (unprepared)")?.get(0) ?? 0) + 1]]),
        );
        return;
      }
      const { request, token } = prepared;
      const body = { ...JSON.parse(request.body!.text), [name]: value };
      const edge: FuzzRequest = { ...request, mode: "edge values", body: { text: JSON.stringify(body), contentType: "application/json" } };
      const before = await snapshot();
      const response = await send(edge, token);
      const after = await snapshot();
      if (options.stats) {
        options.stats.requests++;
        options.stats.statuses.set(response.status, (options.stats.statuses.get(response.status) ?? 0) + 1);
        const byMode = options.stats.byMode.get("edge values") ?? new Map<number, number>();
        options.stats.byMode.set("edge values", byMode.set(response.status, (byMode.get(response.status) ?? 0) + 1));
      }
      const wrong =
        edgeVerdict(
          op,
          response.status,
          response.text,
          response.contentType,
          changes(before, after),
          eventCount(after) > eventCount(before),
        ) ??
        (await orphans()).map((orphan) => `left a row naming no row: ${orphan}`)[0] ??
        null;
      if (wrong) throw new Error(`${op.name} with ${name} = ${JSON.stringify(value)?.slice(0, 80)}: ${wrong}`);
    }),
    { numRuns: Math.min(options.runs, candidates.length), seed: options.seed, includeErrorInReport: true },
  );
}
