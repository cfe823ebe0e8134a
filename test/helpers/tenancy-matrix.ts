import { documentMismatch } from "./document-match";
import { type FuzzRequest, type FuzzResponse, type Send, sendToWorker } from "./fuzz-harness";
import { exampleValue, fillPath, type OpenApiDocument, paramKey, resolve, type Schema, type WalkedOperation } from "./openapi-walk";
import { fixtureId, fixturePathValues, type RecordFixture } from "./record-fixture";

/** The operation called on the fixture organization's records, with a plausible body and required query. */
export function recordRequest(document: OpenApiDocument, op: WalkedOperation, fixture: RecordFixture): FuzzRequest {
  return {
    mode: "real ids",
    method: op.method,
    path: fillPath(op.path, fixturePathValues(fixture, op.path, op.pathParams)),
    query: op.queryParams.filter((p) => p.required).map((p) => [p.name, String(exampleValue(document, p.schema))]),
    ...(op.body ? { body: { text: JSON.stringify(exampleValue(document, op.body)), contentType: "application/json" } } : {}),
  };
}

/** What is wrong with the answer to the call, or null when it is the expected status (a problem for 4xx). */
export async function refusal(
  document: OpenApiDocument,
  op: WalkedOperation,
  fixture: RecordFixture,
  token: string,
  expected: number,
  send: Send = sendToWorker,
  hidden?: string,
): Promise<string | null> {
  const response = await send(recordRequest(document, op, fixture), token);
  if (response.status !== expected) return `${op.name} answered ${response.status}, expected ${expected}: ${response.text.slice(0, 200)}`;
  if (hidden !== undefined && response.text.includes(hidden)) return `${op.name} showed ${hidden} to a caller who may not see it`;
  if (response.status >= 400 && !response.contentType.startsWith("application/problem+json")) {
    return `${op.name} answered ${response.status} as '${response.contentType}', not a problem document`;
  }
  return documentMismatch(op.name, response);
}

/**
 * Query parameters and body fields naming records; an `externalId` or `payrollId` is the caller's own key, a
 * `batchId` the payroll provider's batch label (payroll settings, issue 46).
 */
const REFERENCE = /^(?!external|payroll|batch).*Ids?$|^(employees|locations)(\[\])?$/;
const ORGANIZATION_PARAMS = new Set(["organization_id", "organizationId"]);

/** The fixture key (see `paramKey`) of the record a query parameter or body field names. */
function referenceKey(path: string, name: string): string {
  const leaf = name.replace(/\[\]$/, "");
  if (leaf === "typeId") return path.includes("/policies") ? "policies/types" : "breaks";
  const key = REFERENCE_KEYS[leaf];
  if (key === undefined)
    throw new Error(`add the record that '${name}' of ${path} names to REFERENCE_KEYS in test/helpers/tenancy-matrix.ts`);
  return key;
}

const REFERENCE_KEYS: Record<string, string> = {
  employeeId: "staffmembers",
  employeeIds: "staffmembers",
  employees: "staffmembers",
  workerId: "staffmembers",
  // Someone other than the entry's worker, where the fixture has one (see `idOf`).
  targetEmployeeId: "staffmembers/colleague",
  locationId: "locations",
  locationIds: "locations",
  locations: "locations",
  roleId: "roles",
  roleIds: "roles",
  accessRoleId: "access-roles",
  policyId: "policies",
  scheduleEntryId: "schedules",
  targetScheduleEntryId: "schedules/colleague",
  preferenceIds: "preferences",
  parentId: "cost-codes",
  costCodeId: "cost-codes",
  photoId: "photos",
  consentId: "consents",
  // The audit log's filters: a worker's entries, an actor's (a staff member's), a record's (a shift's).
  staffMemberId: "staffmembers",
  actorId: "staffmembers",
  resourceId: "timesheets",
};

/** A reference the request can carry: where it goes, and its value for the ids of one fixture or another. */
interface Reference {
  /** `path {id}`, `query locationId`, `body roleId`, `body breaks[].typeId`: as failure messages print it. */
  field: string;
  /** The name an error's `path` ends with when a 400 names it. */
  leaf: string;
  /** An optional query filter: left out but in its own request, so that no other filter hides what it would show. */
  filter?: boolean;
  /** It names an organization (by its external id): ORGANIZATION_NOT_FOUND is then the answer. */
  namesOrganization?: boolean;
  value: (fixture: RecordFixture) => string | string[];
  place: (request: FuzzRequest & { bodyValue?: unknown }, value: string | string[]) => void;
}

/** The fixture's record under a key; `staffmembers/colleague` falls back to `staffmembers` where it has none. */
const idOf = (fixture: RecordFixture, key: string) => {
  const id = fixture.ids[key] ?? fixture.ids[key.replace(/\/colleague$/, "")];
  if (id === undefined) throw new Error(`add a fixture id for '${key}' in test/helpers/record-fixture.ts`);
  return id;
};

/** Every record reference an operation declares: its path ids (but the organization's), id query parameters, body ids. */
function references(document: OpenApiDocument, op: WalkedOperation): Reference[] {
  const found: Reference[] = [];
  for (const p of op.pathParams) {
    if (ORGANIZATION_PARAMS.has(p.name)) continue;
    found.push({
      field: `path {${p.name}}`,
      leaf: p.name,
      namesOrganization: paramKey(op.path, p.name).startsWith("organizations"),
      value: (fixture) => fixtureId(fixture, op.path, p.name),
      place: () => {},
    });
  }
  for (const p of op.queryParams) {
    if (!REFERENCE.test(p.name) || p.name === "organizationId") continue;
    const key = referenceKey(op.path, p.name);
    found.push({
      field: `query ${p.name}`,
      leaf: p.name.replace(/\[\]$/, ""),
      filter: !p.required,
      value: (fixture) => idOf(fixture, key),
      place: (request, value) => {
        request.query = [...request.query.filter(([name]) => name !== p.name), [p.name, String(value)]];
      },
    });
  }
  const body = op.body ? resolve(document, op.body) : undefined;
  for (const [name, raw] of Object.entries((body?.properties ?? {}) as Record<string, Schema>)) {
    const property = resolve(document, raw);
    const isList = property.type === "array" || (Array.isArray(property.type) && property.type.includes("array"));
    if (REFERENCE.test(name)) {
      const key = referenceKey(op.path, name);
      found.push({
        field: `body ${name}`,
        leaf: name,
        value: (fixture) => (isList ? [idOf(fixture, key)] : idOf(fixture, key)),
        place: (request, value) => {
          (request.bodyValue as Record<string, unknown>)[name] = value;
        },
      });
      continue;
    }
    // A list of objects with references of their own (a manual shift's breaks, a sync's records): one item.
    const items = isList ? resolve(document, property.items) : undefined;
    for (const [itemName, itemRaw] of Object.entries((items?.properties ?? {}) as Record<string, Schema>)) {
      if (!REFERENCE.test(itemName)) continue;
      const key = referenceKey(op.path, itemName);
      const itemIsList = resolve(document, itemRaw).type === "array";
      found.push({
        field: `body ${name}[].${itemName}`,
        leaf: itemName,
        value: (fixture) => (itemIsList ? [idOf(fixture, key)] : idOf(fixture, key)),
        place: (request, value) => {
          const body = request.bodyValue as Record<string, unknown>;
          const list = body[name] as Record<string, unknown>[] | undefined;
          if (!list?.length) body[name] = [exampleValue(document, items!)];
          (body[name] as Record<string, unknown>[])[0]![itemName] = value;
        },
      });
    }
  }
  return found;
}

/** Whether the operation names any record but its organization (the operations the foreign-records column tries). */
export const namesRecords = (document: OpenApiDocument, op: WalkedOperation) => references(document, op).length > 0;

export interface ForeignRequest {
  reference: string;
  /** The errors' path a 400 must name. */
  leaf: string;
  namesOrganization: boolean;
  request: FuzzRequest;
}

/**
 * The intruder's own organization and records in every place but one, which names the victim's record: one request
 * per reference the operation declares whose values differ between the two fixtures. The intruder names its
 * organization in the path, or with `?organizationId=` when `partnerLevel` (a partner-level token).
 */
export function foreignRequests(
  document: OpenApiDocument,
  op: WalkedOperation,
  victim: RecordFixture,
  intruder: RecordFixture,
  options: { partnerLevel?: boolean; query?: Record<string, string>; body?: Record<string, unknown> } = {},
): ForeignRequest[] {
  const all = references(document, op);
  const base = () => {
    const query: [string, string][] = op.queryParams
      .filter((p) => p.required)
      .map((p) => [p.name, options.query?.[p.name] ?? String(exampleValue(document, p.schema))]);
    for (const [name, value] of Object.entries(options.query ?? {})) if (!query.some(([n]) => n === name)) query.push([name, value]);
    const example = op.body ? exampleValue(document, op.body) : undefined;
    const request: FuzzRequest & { bodyValue?: unknown } = {
      mode: "real ids",
      method: op.method,
      path: "",
      query,
      // A bare-array body (PUT …/school-terms) is sent as it is.
      ...(op.body ? { bodyValue: Array.isArray(example) ? example : { ...(example as object), ...options.body } } : {}),
    };
    if (options.partnerLevel) request.query.push(["organizationId", intruder.org.id]);
    // Every other reference names the intruder's own record, so that nothing but the one foreign id is amiss.
    for (const reference of all) if (!reference.filter) reference.place(request, reference.value(intruder));
    return request;
  };
  const pathValues = (foreign?: Reference) =>
    Object.fromEntries(
      op.pathParams.map((p) => {
        if (ORGANIZATION_PARAMS.has(p.name)) return [p.name, intruder.org.id];
        const owner = foreign?.field === `path {${p.name}}` ? victim : intruder;
        return [p.name, fixtureId(owner, op.path, p.name)];
      }),
    );
  return all
    .filter((reference) => JSON.stringify(reference.value(victim)) !== JSON.stringify(reference.value(intruder)))
    .map((reference) => {
      const request = base();
      reference.place(request, reference.value(victim));
      const { bodyValue, ...rest } = request;
      return {
        reference: reference.field,
        leaf: reference.leaf,
        namesOrganization: reference.namesOrganization ?? false,
        request: {
          ...rest,
          path: fillPath(op.path, pathValues(reference)),
          ...(bodyValue !== undefined ? { body: { text: JSON.stringify(bodyValue), contentType: "application/json" } } : {}),
        },
      };
    });
}

/**
 * What is wrong with the answer to a request naming another organization's record, or null: it must be a 404
 * problem that is not the organization's (the request named the caller's own), or a 400 naming the reference; a
 * successful read passes only when it shows none of the victim's records (a filter that matches nothing).
 */
export function foreignVerdict(op: WalkedOperation, foreign: ForeignRequest, response: FuzzResponse, victim: RecordFixture): string | null {
  const leak = tenancyVerdict(op, foreign, response, victim);
  if (leak) return leak;
  const undeclared = documentMismatch(op.name, response);
  return undeclared && `${op.name} with another organization's ${foreign.reference}: ${undeclared}`;
}

function tenancyVerdict(op: WalkedOperation, foreign: ForeignRequest, response: FuzzResponse, victim: RecordFixture): string | null {
  const where = `${op.name} with another organization's ${foreign.reference}`;
  const { status, text } = response;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (status === 404 && response.contentType.startsWith("application/problem+json")) {
    return body?.code === "ORGANIZATION_NOT_FOUND" && !foreign.namesOrganization
      ? `${where} answered ORGANIZATION_NOT_FOUND: the request named the caller's own`
      : null;
  }
  // The kiosk answers a member it does not know exactly as a wrong PIN, so that members cannot be enumerated.
  if (status === 401 && response.contentType.startsWith("application/problem+json") && body?.code === "PIN_INCORRECT") return null;
  if (status === 400 && response.contentType.startsWith("application/problem+json")) {
    const paths: string[] = (body?.errors ?? []).map((e: { path: string }) => e.path);
    return paths.some((p) => p.split(/[./[\]]/).includes(foreign.leaf))
      ? null
      : `${where} answered 400 naming ${JSON.stringify(paths)}, not ${foreign.leaf}: ${text.slice(0, 200)}`;
  }
  if (status === 200 && op.method === "GET") {
    const shown = Object.entries(victim.ids).find(([key, id]) => key !== "pay-periods" && text.includes(id));
    return shown ? `${where} showed the victim's ${shown[0]} ${shown[1]}` : null;
  }
  return `${where} answered ${status}, expected 404 or 400 naming ${foreign.leaf}: ${text.slice(0, 200)}`;
}
