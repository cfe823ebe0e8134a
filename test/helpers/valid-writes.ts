import { api } from "./api";
import type { OrganizationFixture } from "./fixtures";
import { createOrganization, unique } from "./fixtures";
import type { FuzzRequest } from "./fuzz-harness";
import { enrollDevice, setStaffPin } from "./kiosk";
import { fillPath, type OpenApiDocument, resolve, type Schema, type WalkedOperation } from "./openapi-walk";
import { fixturePathValues, type RecordFixture } from "./record-fixture";
import { tenantDb } from "./shards";
import { createStaffMember, staffToken } from "./staff";
import { accessToken } from "./tokens";
import { HERE } from "./workplace";

/**
 * Writes that change records and record no event, known and listed so that none is added silently: a new
 * organization has no `organization.created` event type (its events start with the first change in it; the
 * webhook and events suites count on that). The test fails when one of these starts recording an event.
 */
export const WITHOUT_EVENT = new Set([
  "POST /api/organizations",
  "POST /api/organizations/with-defaults",
  "POST /api/organizations/sandbox",
]);

const EARLY = { date: "2026-03-14", dateTime: "2026-03-14T09:00:00Z" };
const LATE = { date: "2026-03-15", dateTime: "2026-03-14T17:00:00Z" };
/** Names of the later bound of a range: `endTime`, `endDate`, `fromEndDate`, `to`. */
const LATER = /end|^to$|until/i;

/**
 * A value the schema accepts, cross-field rules included where a name tells them (an end after its start): the
 * property's example, else its default, first enum value or first alternative, else one of its type (as many
 * array items as `minItems` asks). Objects get their required properties; with none (a PATCH), the first one.
 */
export function validExample(document: OpenApiDocument, raw: Schema, name = ""): unknown {
  const schema = resolve(document, raw);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
  if (
    schema.example !== undefined &&
    !(type === "array" && Array.isArray(schema.example) && schema.example.length < (schema.minItems ?? 0))
  ) {
    if (LATER.test(name) && typeof schema.example === "string" && (schema.format === "date-time" || schema.format === "date")) {
      return schema.format === "date" ? LATE.date : LATE.dateTime;
    }
    return schema.example;
  }
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return (schema.enum as unknown[]).find((v) => v !== null) ?? null;
  if (schema.const !== undefined) return schema.const;
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) {
    const alternative = alternatives.find((a) => resolve(document, a).type !== "null") ?? alternatives[0]!;
    return validExample(document, alternative, name);
  }
  if (schema.allOf)
    return validExample(document, { ...Object.assign({}, ...(schema.allOf as Schema[]).map((s) => resolve(document, s))) }, name);
  if (type === "object" || schema.properties) {
    const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
    const required = new Set<string>(schema.required ?? []);
    const chosen = required.size > 0 ? properties.filter(([key]) => required.has(key)) : properties.slice(0, 1);
    return Object.fromEntries(chosen.map(([key, property]) => [key, validExample(document, property, key)]));
  }
  if (type === "array") return Array.from({ length: schema.minItems ?? 0 }, () => validExample(document, schema.items ?? {}, name));
  if (type === "boolean") return false;
  if (type === "integer" || type === "number")
    return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
  if (schema.format === "date") return LATER.test(name) ? LATE.date : EARLY.date;
  if (schema.format === "date-time") return LATER.test(name) ? LATE.dateTime : EARLY.dateTime;
  return "x".repeat(Math.max(1, schema.minLength ?? 1));
}

/** Body fields naming records, by the fixture id (path key) a valid request gives them. */
const REFERENCES: Record<string, string> = {
  employeeId: "staffmembers",
  workerId: "staffmembers",
  targetEmployeeId: "staffmembers",
  employeeIds: "staffmembers",
  locationId: "locations",
  locationIds: "locations",
  roleId: "roles",
  roleIds: "roles",
  accessRoleId: "access-roles",
  policyId: "policies",
  scheduleEntryId: "schedules",
  preferenceIds: "preferences",
};

/** The body with every reference the fixture has a record for pointing at that record. */
function withFixtureReferences(body: unknown, fixture: RecordFixture): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => {
      const id = REFERENCES[key] === undefined ? undefined : fixture.ids[REFERENCES[key]];
      if (id === undefined) return [key, Array.isArray(value) ? value.map((v) => withFixtureReferences(v, fixture)) : value];
      return [key, Array.isArray(value) ? [id] : id];
    }),
  );
}

/** What an operation needs beyond the example: its own records, another caller, more fields. */
interface Preparation {
  path?: Record<string, string>;
  body?: Record<string, unknown>;
  /** A body that is not JSON, as sent (a kiosk photo). */
  raw?: { text: string; contentType: string };
  query?: [string, string][];
  token?: string;
}

interface Context {
  fixture: RecordFixture;
  org: OrganizationFixture;
  orgPath: string;
  schedulePath: string;
}

async function ok(res: Promise<Awaited<ReturnType<typeof api>>>, what: string) {
  const { status, body, text } = await res;
  if (status < 200 || status >= 300) throw new Error(`preparing ${what}: ${status} ${text}`);
  return body;
}

let day = 0;
/**
 * A future day of its own for each record that must not overlap another (schedule entries, time off); the
 * hours the preparations use (13:00-17:00Z) miss the subject's weekly unavailability (09:00-12:00Z).
 */
const freshDay = () => new Date(Date.UTC(2027, 8, 1) + day++ * 86_400_000).toISOString().slice(0, 10);

const freshHours = (): Preparation => {
  const date = freshDay();
  return { body: { startTime: `${date}T13:00:00Z`, endTime: `${date}T17:00:00Z` } };
};

const staffAt = (c: Context) =>
  createStaffMember(c.org, { locationIds: [c.fixture.ids.locations], roleIds: [c.fixture.ids.roles], accessRoleName: "Employee" });

const clockedIn = async (c: Context) => {
  const staff = await staffAt(c);
  const punchPath = `${c.orgPath}/staffmembers/${staff.id}/locations/${c.fixture.ids.locations}`;
  await ok(api("POST", `${punchPath}/clock-in`, { token: c.org.adminToken, body: { ...HERE, roleId: c.fixture.ids.roles } }), "clock-in");
  return { staff, punchPath };
};

const entry = (c: Context, employeeId: string, draft = false) => {
  const date = freshDay();
  return ok(
    api("POST", `${c.schedulePath}/schedules${draft ? "/drafts" : ""}`, {
      token: c.org.adminToken,
      body: { employeeId, roleId: c.fixture.ids.roles, startTime: `${date}T13:00:00Z`, endTime: `${date}T17:00:00Z` },
    }),
    "schedule entry",
  );
};

/** A pending swap of a new future entry of the subject with a new staff member, who holds the returned token. */
async function swap(c: Context) {
  const target = await staffAt(c);
  const future = await entry(c, c.fixture.ids.staffmembers!);
  const request = await ok(
    api("POST", `${c.schedulePath}/shift-requests`, {
      token: c.org.adminToken,
      body: { type: "SWAP", scheduleEntryId: future.id, targetEmployeeId: target.id },
    }),
    "shift request",
  );
  return { id: request.id as string, targetToken: await staffToken(c.org, target.id) };
}

const openShift = (c: Context) => {
  const date = freshDay();
  return ok(
    api("POST", `${c.schedulePath}/open-shifts`, {
      token: c.org.adminToken,
      body: {
        roleId: c.fixture.ids.roles,
        startDate: `${date}T13:00:00Z`,
        endDate: `${date}T17:00:00Z`,
        staffCountRequired: 2,
        requireApproval: true,
        publish: true,
      },
    }),
    "open shift",
  );
};

/** A pending preference of the subject on a new open shift. */
async function preference(c: Context) {
  const shift = await openShift(c);
  const created = await ok(
    api("POST", `${c.schedulePath}/open-shifts/${shift.id}/preferences`, {
      token: c.org.adminToken,
      body: { workerId: c.fixture.ids.staffmembers, preference: "PREFERRED" },
    }),
    "preference",
  );
  return { id: shift.id as string, preferenceId: created.id as string };
}

async function timeOffRequest(c: Context) {
  const date = freshDay();
  const created = await ok(
    api("POST", `${c.orgPath}/time-off-requests`, {
      token: c.org.adminToken,
      body: {
        workerId: c.fixture.ids.staffmembers,
        policyId: c.fixture.ids.policies,
        startTime: `${date}T09:00:00Z`,
        endTime: `${date}T17:00:00Z`,
        isAllDay: false,
      },
    }),
    "time-off request",
  );
  return created.id as string;
}

/** The Monday starting the current weekly pay period (the default settings). */
/** Last week's weekly period (from its Monday): one that has ended, so it can be closed. */
const endedPeriod = () => new Date(Date.now() - (((new Date().getUTCDay() + 6) % 7) + 7) * 86_400_000).toISOString().slice(0, 10);

/** A fresh enrolled device of the fixture's location, with one request made (its lastSeenAt set for the minute). */
async function kioskDevice(c: Context) {
  const device = await enrollDevice(c.org, c.fixture.ids.locations!);
  await ok(api("GET", "/api/kiosk/staff", { token: device.token }), "kiosk staff");
  return device;
}

/** A succeeded delivery of the organization's last event to its endpoint, written as the consumer writes one: its id. */
async function deliveredEvent(org: OrganizationFixture, webhookId: string) {
  const event = await tenantDb()
    .prepare("SELECT id, type, sequence FROM events WHERE organization_id = ? ORDER BY sequence DESC LIMIT 1")
    .bind(org.id)
    .first<{ id: string; type: string; sequence: number }>();
  const id = crypto.randomUUID();
  await tenantDb()
    .prepare(
      `INSERT INTO webhook_deliveries (id, organization_id, webhook_id, event_id, event_type, sequence, attempt, status,
        response_status, duration_ms, error, next_retry_at, created_at) VALUES (?, ?, ?, ?, ?, ?, 1, 'succeeded', 200, 5, NULL, NULL, ?)`,
    )
    .bind(id, org.id, webhookId, event!.id, event!.type, event!.sequence, Date.now())
    .run();
  return id;
}

const O = "/api/organizations/{organization_id}";
const S = "/api/organizations/{organizationId}/locations/{locationId}";
const PUNCH = `${O}/staffmembers/{id}/locations/{location_id}`;

/**
 * Per operation, what makes its example succeed on the fixture. Records a write consumes (a pending request it
 * approves, an open shift it closes) are made fresh for it, so that the writes run in any order.
 */
const PREPARATIONS: Record<string, (c: Context) => Promise<Preparation>> = {
  "POST /api/organizations": async () => ({ token: await accessToken() }),
  "POST /api/organizations/with-defaults": async () => ({ token: await accessToken() }),
  "POST /api/organizations/sandbox": async () => ({ token: await accessToken() }),
  // A test clock is a sandbox's: a fresh one, moved an hour on.
  [`POST ${O}/test-clock/advance`]: async () => {
    const sandbox = await ok(
      api("POST", "/api/organizations/sandbox", { token: await accessToken(), body: { name: unique("Sandbox") } }),
      "sandbox",
    );
    return {
      path: { organization_id: sandbox.id },
      token: await accessToken({ organizationId: sandbox.id }),
      body: { to: new Date(Date.now() + 3_600_000).toISOString() },
    };
  },
  // A replayable delivery: an event of a fresh organization sent once to its (disabled) endpoint.
  [`POST ${O}/webhooks/{id}/deliveries/{deliveryId}/replay`]: async () => {
    const org = await createOrganization();
    const hook = await ok(
      api("POST", `/api/organizations/${org.id}/webhooks`, {
        token: org.adminToken,
        body: { url: "http://127.0.0.1:9/hook", enabled: false },
      }),
      "webhook",
    );
    const deliveryId = await deliveredEvent(org, hook.id);
    return { path: { organization_id: org.id, id: hook.id, deliveryId }, token: org.adminToken };
  },
  "DELETE /api/organizations/external/{externalId}": async () => {
    const externalId = unique("org-ext");
    await createOrganization({ externalId });
    return { path: { externalId }, token: await accessToken() };
  },
  // Disabled endpoints: an enabled one's deliveries (to an address nothing answers) would go on changing its row in the
  // background (failures, lease) while later writes are compared before and after.
  [`POST ${O}/webhooks`]: async () => ({ body: { enabled: false } }),
  [`PATCH ${O}/webhooks/{id}`]: async () => ({ body: { enabled: false } }),
  [`POST ${PUNCH}/clock-in`]: async (c) => ({ path: { id: (await staffAt(c)).id }, body: { ...HERE, roleId: c.fixture.ids.roles } }),
  [`POST ${PUNCH}/clock-out`]: async (c) => ({ path: { id: (await clockedIn(c)).staff.id }, body: HERE }),
  [`POST ${PUNCH}/break-start`]: async (c) => ({
    path: { id: (await clockedIn(c)).staff.id },
    body: { ...HERE, typeId: c.fixture.ids.breaks },
  }),
  [`POST ${PUNCH}/break-end`]: async (c) => {
    const { staff, punchPath } = await clockedIn(c);
    await ok(
      api("POST", `${punchPath}/break-start`, { token: c.org.adminToken, body: { ...HERE, typeId: c.fixture.ids.breaks } }),
      "break",
    );
    return { path: { id: staff.id }, body: HERE };
  },
  [`POST ${O}/pay-periods/{periodId}/close`]: async () => {
    const org = await createOrganization();
    return { path: { organization_id: org.id, periodId: endedPeriod() }, token: org.adminToken };
  },
  [`POST ${O}/pay-periods/{periodId}/reopen`]: async () => {
    const org = await createOrganization();
    await ok(api("POST", `/api/organizations/${org.id}/pay-periods/${endedPeriod()}/close`, { token: org.adminToken, body: {} }), "close");
    return { path: { organization_id: org.id, periodId: endedPeriod() }, token: org.adminToken };
  },
  // Only the worker's own token gives their consent.
  [`POST ${O}/staffmembers/{id}/consents`]: async (c) => {
    const staff = await staffAt(c);
    return { path: { id: staff.id }, token: await staffToken(c.org, staff.id) };
  },
  [`POST ${O}/staffmembers/{id}/availability`]: async () => ({
    body: { startTime: "2030-01-07T09:00:00Z", endTime: "2030-01-07T12:00:00Z" },
  }),
  [`POST ${O}/pay-periods/{periodId}/approvals`]: async (c) => ({ body: { employeeIds: [(await staffAt(c)).id] } }),
  [`PATCH ${O}/policies/{policy_id}/deactivate`]: async (c) => {
    const types = await ok(api("GET", `${c.orgPath}/policies/types`, { token: c.org.adminToken }), "policy types");
    const policy = await ok(
      api("POST", `${c.orgPath}/policies`, { token: c.org.adminToken, body: { name: unique("Leave"), typeId: types[0].id } }),
      "policy",
    );
    await ok(api("PATCH", `${c.orgPath}/policies/${policy.id}/activate`, { token: c.org.adminToken }), "active policy");
    return { path: { policy_id: policy.id } };
  },
  [`POST ${O}/policies`]: async (c) => {
    const types = await ok(api("GET", `${c.orgPath}/policies/types`, { token: c.org.adminToken }), "policy types");
    return { body: { typeId: types[0].id } };
  },
  [`POST ${O}/time-off-requests`]: async (c) => {
    const date = freshDay();
    return {
      body: { workerId: c.fixture.ids.staffmembers, startTime: `${date}T09:00:00Z`, endTime: `${date}T17:00:00Z`, isAllDay: false },
    };
  },
  [`PUT ${O}/time-off-requests/{id}`]: async (c) => {
    const date = freshDay();
    return {
      path: { id: await timeOffRequest(c) },
      body: { startTime: `${date}T09:00:00Z`, endTime: `${date}T17:00:00Z`, isAllDay: false },
    };
  },
  [`DELETE ${O}/time-off-requests/{id}`]: async (c) => ({ path: { id: await timeOffRequest(c) } }),
  [`POST ${O}/time-off-requests/{id}/approve`]: async (c) => ({ path: { id: await timeOffRequest(c) } }),
  [`POST ${O}/time-off-requests/{id}/decline`]: async (c) => ({ path: { id: await timeOffRequest(c) } }),
  [`POST ${S}/schedules`]: async () => freshHours(),
  [`POST ${S}/schedules/drafts`]: async () => freshHours(),
  [`POST ${S}/schedules/bulk-copy`]: async () => ({
    body: { fromStartDate: "2026-06-01", fromEndDate: "2026-06-07", toStartDate: "2027-12-06" },
  }),
  [`POST ${S}/shift-requests`]: async (c) => ({ body: { scheduleEntryId: (await entry(c, c.fixture.ids.staffmembers!)).id } }),
  [`POST ${S}/shift-requests/{id}/accept`]: async (c) => {
    const { id, targetToken } = await swap(c);
    return { path: { id }, token: targetToken };
  },
  [`POST ${S}/shift-requests/{id}/approve`]: async (c) => {
    const { id, targetToken } = await swap(c);
    await ok(api("POST", `${c.schedulePath}/shift-requests/${id}/accept`, { token: targetToken }), "accepted swap");
    return { path: { id } };
  },
  [`POST ${S}/shift-requests/{id}/decline`]: async (c) => ({ path: { id: (await swap(c)).id } }),
  [`POST ${S}/shift-requests/{id}/cancel`]: async (c) => ({ path: { id: (await swap(c)).id } }),
  [`POST ${S}/open-shifts`]: async (c) => ({ body: { roleId: c.fixture.ids.roles } }),
  [`POST ${S}/open-shifts/{id}/claim`]: async (c) => ({ path: { id: (await openShift(c)).id } }),
  [`POST ${S}/open-shifts/{id}/retract`]: async (c) => ({ path: { id: (await preference(c)).id } }),
  [`POST ${S}/open-shifts/{id}/preferences/bulk-assign`]: async (c) => {
    const { id, preferenceId } = await preference(c);
    return { path: { id }, body: { preferenceIds: [preferenceId] } };
  },
  [`POST ${S}/open-shifts/{id}/preferences`]: async (c) => ({
    path: { id: (await openShift(c)).id },
    body: { workerId: c.fixture.ids.staffmembers },
  }),
  [`POST ${S}/open-shifts/{id}/preferences/{preferenceId}/retract`]: async (c) => ({ path: await preference(c) }),
  [`PATCH ${S}/open-shifts/{id}/preferences/{preferenceId}`]: async (c) => ({ path: await preference(c) }),
  [`PATCH ${S}/open-shifts/{id}/preferences/{preferenceId}/remove`]: async (c) => ({ path: await preference(c) }),
  [`POST ${S}/open-shifts/{id}/preferences/{preferenceId}/assign`]: async (c) => ({ path: await preference(c) }),
  [`DELETE ${S}/open-shifts/{id}`]: async (c) => ({ path: { id: (await openShift(c)).id } }),
  [`DELETE ${S}/schedules/{id}`]: async (c) => ({ path: { id: (await entry(c, c.fixture.ids.staffmembers!)).id } }),
  [`DELETE ${S}/schedules/drafts/{id}`]: async (c) => ({ path: { id: (await entry(c, c.fixture.ids.staffmembers!, true)).id } }),
  // Wage rates: a fresh staff member each, so that (employee, role, location, effectiveFrom) is never taken.
  [`POST ${O}/wage-rates`]: async (c) => ({ body: { employeeId: (await staffAt(c)).id, hourlyRate: 20, effectiveFrom: "2027-02-01" } }),
  [`DELETE ${O}/wage-rates/{id}`]: async (c) => {
    const body = { employeeId: (await staffAt(c)).id, hourlyRate: 20, effectiveFrom: "2027-02-01" };
    return { path: { id: (await ok(api("POST", `${c.orgPath}/wage-rates`, { token: c.org.adminToken, body }), "wage rate")).id } };
  },
  [`POST ${PUNCH}/switch`]: async (c) => {
    const code = await ok(
      api("POST", `${c.orgPath}/cost-codes`, { token: c.org.adminToken, body: { code: unique("CC"), name: "Next" } }),
      "cost code",
    );
    await ok(api("PUT", `${c.orgPath}/cost-codes/${code.id}/assignments`, { token: c.org.adminToken, body: { all: true } }), "assignment");
    return { path: { id: (await clockedIn(c)).staff.id }, body: { ...HERE, costCodeId: code.id, roleId: c.fixture.ids.roles } };
  },
  [`POST ${O}/cost-codes`]: async () => ({ body: { code: unique("CC") } }),
  // Custom fields: a fresh name each, never required (the punches after this one clock out without values).
  [`POST ${O}/custom-fields`]: async () => ({ body: { name: unique("CF"), required: false } }),
  [`PATCH ${O}/custom-fields/{id}`]: async () => ({ body: { name: unique("CF") } }),
  [`DELETE ${O}/custom-fields/{id}`]: async (c) => ({
    path: {
      id: (
        await ok(
          api("POST", `${c.orgPath}/custom-fields`, { token: c.org.adminToken, body: { name: unique("CF"), type: "TEXT" } }),
          "custom field",
        )
      ).id,
    },
  }),
  // Kiosks: a device of its own to revoke; a member with a PIN to remove, with a wrong PIN to forget, to check.
  [`DELETE ${O}/locations/{locationId}/devices/{id}`]: async (c) => ({ path: { id: (await kioskDevice(c)).deviceId } }),
  [`DELETE ${O}/staffmembers/{id}/pin`]: async (c) => {
    const staff = await staffAt(c);
    await setStaffPin(c.org, staff.id, "2468");
    return { path: { id: staff.id } };
  },
  [`DELETE ${O}/staffmembers/{id}/pin-lock`]: async (c) => {
    const staff = await staffAt(c);
    await setStaffPin(c.org, staff.id, "2468");
    const device = await kioskDevice(c);
    await api("POST", "/api/kiosk/pin-check", { token: device.token, body: { employeeId: staff.id, pin: "1357" } });
    return { path: { id: staff.id } };
  },
  "POST /api/kiosk/pin-check": async (c) => {
    const staff = await staffAt(c);
    await setStaffPin(c.org, staff.id, "2468");
    return { token: (await kioskDevice(c)).token, body: { employeeId: staff.id, pin: "2468" } };
  },
  // Kiosk punches: a member with a PIN clocks in at a fresh device.
  "POST /api/kiosk/punches": async (c) => {
    const staff = await staffAt(c);
    await setStaffPin(c.org, staff.id, "2468");
    const token = (await kioskDevice(c)).token;
    return { token, body: { employeeId: staff.id, pin: "2468", action: "CLOCK_IN", roleId: c.fixture.ids.roles } };
  },
  "POST /api/kiosk/photos": async (c) => ({
    token: (await kioskDevice(c)).token,
    // A lossless WebP whose bytes are all ASCII, so it travels as text: RIFF of 22 bytes, one VP8L chunk of 10 (its
    // signature 2F, a 1×1 header of four zero bytes, then data). Its structure is whole; its pixels are not read.
    raw: { text: "RIFF\u0016\u0000\u0000\u0000WEBPVP8L\u000a\u0000\u0000\u0000/\u0000\u0000\u0000\u0000kiosk", contentType: "image/webp" },
  }),
  // A fresh code: the fixture's stays for the writes after this one.
  [`DELETE ${O}/cost-codes/{id}`]: async (c) => ({
    path: {
      id: (
        await ok(
          api("POST", `${c.orgPath}/cost-codes`, { token: c.org.adminToken, body: { code: unique("CC"), name: "Gone" } }),
          "cost code",
        )
      ).id,
    },
  }),
};

/**
 * The operation called so that it succeeds: the fixture's records in the path, a valid example body whose
 * references name the fixture's records, and what `PREPARATIONS` adds. The token is the organization admin's
 * unless the operation needs another caller.
 */
export async function validWrite(
  document: OpenApiDocument,
  op: WalkedOperation,
  fixture: RecordFixture,
): Promise<{ request: FuzzRequest; token: string }> {
  const org = fixture.org;
  const context: Context = {
    fixture,
    org,
    orgPath: `/api/organizations/${org.id}`,
    schedulePath: `/api/organizations/${org.id}/locations/${fixture.ids.locations}`,
  };
  const prepared = (await PREPARATIONS[op.name]?.(context)) ?? {};
  const example = op.body ? withFixtureReferences(validExample(document, op.body), fixture) : undefined;
  const body = example && typeof example === "object" && !Array.isArray(example) ? { ...example, ...prepared.body } : example;
  const query: [string, string][] = op.queryParams
    .filter((p) => p.required)
    .map((p) => [p.name, String(fixture.ids[REFERENCES[p.name] ?? ""] ?? validExample(document, p.schema, p.name))]);
  if (op.path.startsWith("/api/timesheets")) query.push(["organizationId", org.id]);
  return {
    request: {
      mode: "real ids",
      method: op.method,
      path: fillPath(op.path, { ...fixturePathValues(fixture, op.path, op.pathParams), ...prepared.path }),
      query: [...query, ...(prepared.query ?? [])],
      ...(prepared.raw
        ? { body: prepared.raw }
        : body !== undefined
          ? { body: { text: JSON.stringify(body), contentType: "application/json" } }
          : {}),
    },
    token: prepared.token ?? org.adminToken,
  };
}
