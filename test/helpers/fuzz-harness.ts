import { exports } from "cloudflare:workers";
import fc from "fast-check";
import { changes, snapshot } from "./db-snapshot";
import { documentMismatch } from "./document-match";
import {
  type FuzzBody,
  garbageId,
  idempotencyKey,
  invalidBody,
  invalidValues,
  looseBody,
  nastyString,
  queryValue,
  validIdempotencyKey,
} from "./fuzz-inputs";
import { fillPath, type OpenApiDocument, resolve, type Schema, type WalkedOperation } from "./openapi-walk";
import { fixturePathValues, fixtureToken, type RecordFixture } from "./record-fixture";
import { validExample } from "./valid-writes";

export interface FuzzRequest {
  /**
   * "real ids" sends the fixture's records with invalid input; "unknown ids" names at least one missing record in
   * the path; "unknown references" sends a plausible body whose record ids (`…Id`, `…Ids`) name no record;
   * "edge values" a valid write with one property at an edge of its schema (test/helpers/edge-writes.ts).
   */
  mode: "real ids" | "unknown ids" | "unknown references" | "edge values";
  method: string;
  path: string;
  query: [string, string][];
  body?: FuzzBody;
  idempotencyKey?: string;
}

export interface FuzzResponse {
  status: number;
  contentType: string;
  text: string;
}

export type Send = (request: FuzzRequest, token: string) => Promise<FuzzResponse>;

export const sendToWorker: Send = async (request, token) => {
  const url = new URL(`http://shiftline.test${request.path}`);
  for (const [key, value] of request.query) url.searchParams.append(key, value);
  const headers = new Headers({ Authorization: `Bearer ${token}` });
  if (request.body) headers.set("Content-Type", request.body.contentType);
  if (request.idempotencyKey !== undefined) headers.set("Idempotency-Key", request.idempotencyKey);
  const response = await exports.default.fetch(new Request(url, { method: request.method, headers, body: request.body?.text }));
  return { status: response.status, contentType: response.headers.get("Content-Type") ?? "", text: await response.text() };
};

const CODE = /^[A-Z][A-Z0-9_]*$/;

/** What is wrong with a response to a fuzzed request, or null. */
export function verdict(request: FuzzRequest, response: FuzzResponse): string | null {
  const { status, contentType, text } = response;
  if (status >= 500) return `answered ${status}: ${text.slice(0, 300)}`;
  if (status < 400) return request.method === "GET" ? null : `accepted an invalid ${request.method} with ${status}: ${text.slice(0, 200)}`;
  if (!contentType.startsWith("application/problem+json")) return `answered ${status} as '${contentType}', not a problem document`;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch {
    return `answered ${status} with a problem body that is not JSON: ${text.slice(0, 200)}`;
  }
  const shapeErrors = [
    typeof body.type === "string" || "type is not a string",
    typeof body.title === "string" || "title is not a string",
    body.status === status || `status ${String(body.status)} differs from the response's ${status}`,
    typeof body.detail === "string" || "detail is not a string",
    (typeof body.code === "string" && CODE.test(body.code)) || "code is not UPPER_SNAKE",
    body.errors === undefined ||
      (Array.isArray(body.errors) && body.errors.every((e: any) => typeof e?.path === "string" && typeof e?.message === "string")) ||
      "errors is not a list of {path, message}",
  ].filter((check): check is string => check !== true);
  return shapeErrors.length > 0 ? `answered ${status} with a malformed problem: ${shapeErrors.join(", ")}` : null;
}

export interface FuzzStats {
  requests: number;
  /** Status -> count, overall and per request mode. */
  statuses: Map<number, number>;
  byMode: Map<string, Map<number, number>>;
  /** Per request mode, the requests refused before their handler ran (see `refusedBeforeHandler`). */
  beforeHandler: Map<string, number>;
  /** "unknown references" requests refused for something else than their references: `operation: detail`. */
  notForReferences: string[];
}

export const newStats = (): FuzzStats => ({
  requests: 0,
  statuses: new Map(),
  byMode: new Map(),
  beforeHandler: new Map(),
  notForReferences: [],
});

/** Whether an "unknown references" request was refused for its references: not found, or a 400 naming one. */
function refusedForReferences(response: FuzzResponse): boolean {
  // The kiosk answers an unknown member as a wrong PIN (401 PIN_INCORRECT), so that members cannot be enumerated.
  if (response.status === 401) return response.text.includes('"code":"PIN_INCORRECT"');
  if (response.status !== 400) return response.status === 404 || response.status === 409 || response.status === 422;
  try {
    const errors: { path?: string }[] = JSON.parse(response.text).errors ?? [];
    return errors.length > 0 && errors.every((e) => REFERENCE.test(String(e.path ?? "").split(/[.[]/)[0]!));
  } catch {
    return false;
  }
}

/** Problems the platform answers before a handler runs: the request schemas' (`Invalid json: …`) and the body's. */
const BEFORE_HANDLER = new Set(["MALFORMED_JSON", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE"]);

/** Whether the request was refused by the platform (validation, body parsing) before its operation's handler ran. */
export function refusedBeforeHandler(response: FuzzResponse): boolean {
  if (response.status !== 400 && response.status !== 413 && response.status !== 415) return false;
  try {
    const problem = JSON.parse(response.text);
    return BEFORE_HANDLER.has(problem.code) || (problem.code === "VALIDATION_FAILED" && /^Invalid \w+: /.test(problem.detail));
  } catch {
    return true;
  }
}

const bump = (counts: Map<number, number>, status: number) => counts.set(status, (counts.get(status) ?? 0) + 1);

export const histogram = (counts: Map<number, number>) =>
  [...counts]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}: ${n}`)
    .join(", ");

/**
 * Body fields naming other records; an `externalId` is the caller's own key, a `batchId` a payroll provider's batch
 * label (payroll settings, issue 46): not references.
 */
const REFERENCE = /^(?!external|batch).*Ids?$/;

/**
 * The example body with every reference replaced by ids of no record: past validation, into the handler, which
 * must refuse it. Null when the body has no references.
 */
function unknownReferences(document: OpenApiDocument, schema: Schema): fc.Arbitrary<FuzzBody> | null {
  const names = Object.entries((schema.properties ?? {}) as Record<string, Schema>)
    .filter(([name]) => REFERENCE.test(name))
    .map(([name, property]) => ({ name, isList: resolve(document, property).type === "array" }));
  if (names.length === 0) return null;
  const example = validExample(document, schema) as Record<string, unknown>;
  return fc
    .tuple(...names.map(() => fc.string({ unit: "grapheme", minLength: 1, maxLength: 64 }).filter((s) => s.length <= 64)))
    .map((ids) => {
      const body = {
        ...example,
        ...Object.fromEntries(
          names.map(({ name, isList }, i) => [name, isList ? [`no-such-${ids[i]}`.slice(0, 64)] : `no-such-${ids[i]}`.slice(0, 64)]),
        ),
      };
      return { text: JSON.stringify(body), contentType: "application/json" };
    });
}

/** Requests for one operation, or null when nothing can be sent to it that is sure to change nothing. */
export function requests(document: OpenApiDocument, op: WalkedOperation, fixture: RecordFixture): fc.Arbitrary<FuzzRequest> | null {
  const real = fixturePathValues(fixture, op.path, op.pathParams);
  const realIds = Object.values(fixture.ids);
  const isRead = op.method === "GET";
  const optionalQuery = fc
    .tuple(
      fc.tuple(...op.queryParams.map((p) => fc.option(queryValue(document, p, realIds), { nil: undefined }))),
      fc.array(
        fc.tuple(
          nastyString.filter((k) => k.length < 100),
          nastyString,
        ),
        { maxLength: 2 },
      ),
    )
    .map(([values, extra]) => [
      ...op.queryParams.flatMap((p, i): [string, string][] => (values[i] === undefined ? [] : [[p.name, values[i]!]])),
      ...extra,
    ]);
  const key = op.method === "POST" ? fc.option(idempotencyKey, { nil: undefined }) : fc.constant(undefined);
  const request = (mode: FuzzRequest["mode"], path: Record<string, string>, query: [string, string][], body?: FuzzBody, k?: string) => ({
    mode,
    method: op.method,
    path: fillPath(op.path, path),
    query,
    ...(body ? { body } : {}),
    ...(k !== undefined ? { idempotencyKey: k } : {}),
  });

  const modes: fc.Arbitrary<FuzzRequest>[] = [];
  const names = op.pathParams.map((p) => p.name);
  if (names.length > 0) {
    const missing = fc.tuple(fc.subarray(names, { minLength: 1 }), fc.tuple(...names.map(() => garbageId))).map(([which, values]) => ({
      ...real,
      ...Object.fromEntries(which.map((name) => [name, values[names.indexOf(name)]!])),
    }));
    const body = op.body ? looseBody(document, op.body) : fc.constant(undefined);
    modes.push(fc.tuple(missing, optionalQuery, body, key).map(([path, query, b, k]) => request("unknown ids", path, query, b, k)));
  }
  if (isRead) {
    modes.push(optionalQuery.map((query) => request("real ids", real, query)));
  } else if (op.body) {
    modes.push(fc.tuple(optionalQuery, invalidBody(document, op.body), key).map(([query, b, k]) => request("real ids", real, query, b, k)));
    const references = unknownReferences(document, op.body);
    // A valid key, if any: the request must get past the platform's checks to its handler's.
    const validKey = op.method === "POST" ? fc.option(validIdempotencyKey, { nil: undefined }) : fc.constant(undefined);
    if (references) modes.push(fc.tuple(references, validKey).map(([b, k]) => request("unknown references", real, [], b, k)));
  } else if (op.rawBodyTypes.length > 0) {
    // A raw body (an image): text that is no such image, under each declared type or another.
    const types = fc.constantFrom(...op.rawBodyTypes, "text/plain", "application/octet-stream");
    modes.push(fc.tuple(nastyString, types, key).map(([text, contentType, k]) => request("real ids", real, [], { text, contentType }, k)));
  } else {
    const required = op.queryParams.filter((p) => p.required);
    if (required.length > 0) {
      const broken = fc.tuple(optionalQuery, fc.constantFrom(...required)).chain(([query, victim]) => {
        const without = query.filter(([name]) => name !== victim.name);
        const invalid = invalidValues(document, victim.schema);
        return invalid
          ? fc.oneof(
              fc.constant(without),
              invalid.map((v): [string, string][] => [...without, [victim.name, typeof v === "string" ? v : JSON.stringify(v)]]),
            )
          : fc.constant(without);
      });
      modes.push(broken.map((query) => request("real ids", real, query)));
    }
  }
  return modes.length > 0 ? fc.oneof(...modes) : null;
}

/**
 * Sends `runs` generated requests to one operation with the organization admin's token (a kiosk's: the device's): no 5xx, every 4xx a
 * problem document, no write accepted, every answer as the document declares it (status, body, problem code) and
 * every table's rows as they were. Rejects with the first failure.
 */
export async function fuzzOperation(
  document: OpenApiDocument,
  op: WalkedOperation,
  fixture: RecordFixture,
  options: { runs: number; seed: number; send?: Send; stats?: FuzzStats },
) {
  const send = options.send ?? sendToWorker;
  const arbitrary = requests(document, op, fixture);
  if (!arbitrary) throw new Error(`${op.name}: no request is sure to change nothing; give it a path id or a required input`);
  const before = await snapshot();
  await fc.assert(
    fc.asyncProperty(arbitrary, async (request) => {
      // The kiosk operations take the fixture's device token, every other one its admin's.
      const response = await send(request, fixtureToken(fixture, op.path));
      if (options.stats) {
        options.stats.requests++;
        bump(options.stats.statuses, response.status);
        if (!options.stats.byMode.has(request.mode)) options.stats.byMode.set(request.mode, new Map());
        bump(options.stats.byMode.get(request.mode)!, response.status);
        if (refusedBeforeHandler(response)) {
          options.stats.beforeHandler.set(request.mode, (options.stats.beforeHandler.get(request.mode) ?? 0) + 1);
        }
        if (request.mode === "unknown references" && !refusedForReferences(response)) {
          options.stats.notForReferences.push(`${op.name} ${response.status}: ${response.text.slice(0, 160)}`);
        }
      }
      const wrong = verdict(request, response) ?? documentMismatch(op.name, response);
      if (wrong) throw new Error(`${op.name} (${request.mode}) ${wrong}`);
    }),
    { numRuns: options.runs, seed: options.seed, includeErrorInReport: true },
  );
  const changed = changes(before, await snapshot());
  if (changed.length > 0) throw new Error(`${op.name}: fuzzed requests changed the database: ${changed.join("; ")}`);
}
