import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { changes, snapshot } from "../helpers/db-snapshot";
import { type Send, sendToWorker } from "../helpers/fuzz-harness";
import { loadDocument, type WalkedOperation, walk } from "../helpers/openapi-walk";
import { createRecordFixture, fixtureId, type RecordFixture } from "../helpers/record-fixture";
import { createStaffMember } from "../helpers/staff";
import { foreignRequests, foreignVerdict, namesRecords, recordRequest, refusal } from "../helpers/tenancy-matrix";
import { accessToken, SECOND_PARTNER } from "../helpers/tokens";

const document = await loadDocument();
const authenticated = walk(document).filter((op) => !op.isPublic);
const withPathIds = authenticated.filter((op) => op.pathParams.length > 0);

interface EmployeeAnswer {
  status: number;
  /** A record of another staff member the answer must not show (by its key in the fixture's ids). */
  hides?: string;
}

/**
 * The operations a staff member without permissions may call on their organization's records (another staff
 * member as the subject), with their answer as the document describes it. Every other operation with a path
 * id must refuse them with 403.
 */
const OPEN_TO_EVERY_STAFF_MEMBER: Record<string, EmployeeAnswer> = {
  "GET /api/organizations/{organization_id}": { status: 200 },
  "GET /api/organizations/external/{externalId}": { status: 200 },
  // Timesheets: "a staff member without SHIFT_READ sees only their own shifts".
  "GET /api/timesheets/{id}": { status: 404 },
  "GET /api/timesheets/{id}/history": { status: 404 },
  "GET /api/organizations/{organization_id}/locations/{id}/timesheets": { status: 200, hides: "timesheets" },
  // Time off: a staff member without TIMEOFF_READ/TIMEOFF_WRITE reads, edits and cancels only their own requests.
  "GET /api/organizations/{organization_id}/time-off-requests": { status: 200, hides: "time-off-requests" },
  "GET /api/organizations/{organization_id}/time-off-requests/time-offs": { status: 200, hides: "time-off-requests" },
  "GET /api/organizations/{organization_id}/worker-policies": { status: 200, hides: "worker-policies" },
  "GET /api/organizations/{organization_id}/time-off-requests/{id}": { status: 403 },
  // Their own request: workerId defaults to the caller; the document's example policy is no policy of theirs (400).
  "POST /api/organizations/{organization_id}/time-off-requests": { status: 400 },
  "PUT /api/organizations/{organization_id}/time-off-requests/{id}": { status: 403 },
  "DELETE /api/organizations/{organization_id}/time-off-requests/{id}": { status: 403 },
  "GET /api/organizations/{organization_id}/policies/{policy_id}/worker-policies/{workerId}/ledger": { status: 403 },
  // Schedules and open shifts (self rule): the published schedule and published open shifts of their own
  // locations, with only their own preferences; claims and preferences for themself only (the document's example
  // workerId is another worker: 403), and another worker's preference is not theirs to find (404).
  "GET /api/organizations/{organizationId}/locations/{locationId}/schedules": { status: 200, hides: "schedules/drafts" },
  "GET /api/organizations/{organizationId}/locations/{locationId}/schedules/{id}": { status: 200 },
  "GET /api/organizations/{organizationId}/locations/{locationId}/open-shifts": { status: 200, hides: "preferences" },
  "GET /api/organizations/{organizationId}/locations/{locationId}/open-shifts/{id}": { status: 200, hides: "preferences" },
  "POST /api/organizations/{organizationId}/locations/{locationId}/open-shifts/{id}/claim": { status: 403 },
  "POST /api/organizations/{organizationId}/locations/{locationId}/open-shifts/{id}/retract": { status: 403 },
  // Their own preference on the fixture's open shift exists already (see record-fixture).
  "POST /api/organizations/{organizationId}/locations/{locationId}/open-shifts/{id}/preferences": { status: 409 },
  "POST /api/organizations/{organizationId}/locations/{locationId}/open-shifts/{id}/preferences/{preferenceId}/retract": { status: 404 },
  "PATCH /api/organizations/{organizationId}/locations/{locationId}/open-shifts/{id}/preferences/{preferenceId}": { status: 404 },
  // Shift requests (self rule): their own, those naming them and open drops; the fixture's is a swap between two
  // others (404 to them), and the document's example entry is none of theirs (400).
  "GET /api/organizations/{organizationId}/locations/{locationId}/shift-requests": { status: 200, hides: "shift-requests" },
  "POST /api/organizations/{organizationId}/locations/{locationId}/shift-requests": { status: 400 },
  "GET /api/organizations/{organizationId}/locations/{locationId}/shift-requests/{id}": { status: 404 },
  "POST /api/organizations/{organizationId}/locations/{locationId}/shift-requests/{id}/accept": { status: 404 },
  "POST /api/organizations/{organizationId}/locations/{locationId}/shift-requests/{id}/cancel": { status: 404 },
  // Availability: a staff member without SCHEDULE_READ expands only their own.
  "GET /api/organizations/{organization_id}/availability": { status: 200, hides: "availability" },
  // Attendance: a staff member without SHIFT_READ lists and reads only their own exceptions (the subject's is 404).
  "GET /api/organizations/{organization_id}/attendance-exceptions": { status: 200, hides: "attendance-exceptions" },
  "GET /api/organizations/{organization_id}/attendance-exceptions/{id}": { status: 404 },
  // Wage rates: a staff member without EMPLOYEE_WRITE lists, reads and resolves only their own (the subject's is 404).
  "GET /api/organizations/{organization_id}/wage-rates": { status: 200, hides: "wage-rates" },
  "GET /api/organizations/{organization_id}/wage-rates/{id}": { status: 404 },
  // Cost codes: every staff member reads the tree and who may charge a code (they pick one at clock-in).
  "GET /api/organizations/{organization_id}/cost-codes": { status: 200 },
  "GET /api/organizations/{organization_id}/cost-codes/{id}": { status: 200 },
  "GET /api/organizations/{organization_id}/cost-codes/{id}/assignments": { status: 200 },
  // Custom fields: every staff member reads them (they fill them in at clock-in and clock-out).
  "GET /api/organizations/{organization_id}/custom-fields": { status: 200 },
  "GET /api/organizations/{organization_id}/custom-fields/{id}": { status: 200 },
  // Fair Workweek change log: a staff member without SCHEDULE_READ lists only their own changes.
  "GET /api/organizations/{organization_id}/schedule-changes": { status: 200 },
  // Fair Workweek report: a staff member without SCHEDULE_READ sees only their own workweeks.
  "GET /api/organizations/{organization_id}/fair-workweek/report": { status: 200 },
  // Working-time report: a staff member without SHIFT_READ sees only their own rows.
  "GET /api/organizations/{organization_id}/working-time": { status: 200 },
};

let fixture: RecordFixture;
beforeAll(async () => {
  fixture = await createRecordFixture();
}, 30_000);

async function expectAnswer(op: WalkedOperation, token: string, expected: EmployeeAnswer) {
  const before = await snapshot();
  const hidden = expected.hides === undefined ? undefined : fixture.ids[expected.hides];
  expect(await refusal(document, op, fixture, token, expected.status, sendToWorker, hidden)).toBeNull();
  expect(changes(before, await snapshot())).toEqual([]);
}

describe("tenancy matrix", () => {
  it("covers every authenticated operation with a path id", () => {
    expect(withPathIds.length).toBeGreaterThan(40);
    for (const name of Object.keys(OPEN_TO_EVERY_STAFF_MEMBER)) expect(withPathIds.map((op) => op.name)).toContain(name);
  });

  for (const op of withPathIds) {
    it(`${op.name} answers another organization's admin 404 and changes nothing`, async () => {
      await expectAnswer(op, fixture.other.adminToken, { status: 404 });
    });

    const employeeGets = OPEN_TO_EVERY_STAFF_MEMBER[op.name] ?? { status: 403 };
    it(`${op.name} answers a permission-less employee ${employeeGets.status} and changes nothing`, async () => {
      await expectAnswer(op, fixture.employeeToken, employeeGets);
    });
  }
});

/**
 * The fixture organization's admin with a read-only token (scopes `*:read`): every write is 403 INSUFFICIENT_SCOPE
 * naming its scope and changes nothing; every read answers what the admin's unscoped token gets.
 */
describe("tenancy matrix: a read-only token", () => {
  let readOnly: string;
  beforeAll(async () => {
    readOnly = await accessToken({ organizationId: fixture.org.id, scopes: ["*:read"] });
  });
  // The kiosk operations take a device token, which carries no scopes.
  for (const op of authenticated.filter((o) => !o.path.startsWith("/api/kiosk/"))) {
    const reads = op.method === "GET";
    it(`${op.name} ${reads ? "answers a read-only token as the admin's" : "refuses a read-only token 403 INSUFFICIENT_SCOPE"}`, async () => {
      const request = recordRequest(document, op, fixture);
      const before = await snapshot();
      const scoped = await sendToWorker(request, readOnly);
      expect(changes(before, await snapshot())).toEqual([]);
      if (reads) {
        expect(scoped.status).toBe((await sendToWorker(request, fixture.org.adminToken)).status);
        return;
      }
      expect(scoped.status).toBe(403);
      const body = JSON.parse(scoped.text);
      expect(body.code).toBe("INSUFFICIENT_SCOPE");
      expect(body.requiredScope).toMatch(/^[a-z_]+:write$/);
    });
  }
});

/**
 * Another organization's admin naming their own organization (in the path, or as the token's) and the fixture
 * organization's records everywhere else, one reference at a time: past `authorize`, into the record lookups.
 */
describe("tenancy matrix: the caller's own organization, another's records", () => {
  const later = (time: string) => `2027-07-01T${time}Z`;
  const yesterday = (time: string) => `${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}T${time}Z`;
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  /** A range holding the fixture's shifts and attendance exception, so that a listing leaking them would show them. */
  const recent = { query: { startDate: day(-30), endDate: day(1) } };
  /**
   * Valid values where the document's examples are not (a start equal to its end), so that the lookups are reached,
   * and listing ranges that hold the fixture's records.
   */
  const VALID: Record<string, { query?: Record<string, string>; body?: Record<string, unknown> }> = {
    "GET /api/timesheets": recent,
    "GET /api/timesheets/export": recent,
    "GET /api/timesheets/reports": recent,
    "GET /api/timesheets/reports/employees": recent,
    "GET /api/timesheets/pay": recent,
    "GET /api/organizations/{organization_id}/locations/{id}/timesheets": recent,
    "GET /api/organizations/{organization_id}/attendance-exceptions": recent,
    "GET /api/organizations/{organization_id}/schedule-changes": recent,
    "GET /api/organizations/{organization_id}/fair-workweek/report": recent,
    "GET /api/organizations/{organization_id}/working-time": recent,
    // The fixture's weekly unavailability starts on Monday 2027-01-04.
    "GET /api/organizations/{organization_id}/availability": { query: { startDate: "2027-01-01", endDate: "2027-01-31" } },
    "POST /api/organizations/{organizationId}/locations/{locationId}/schedules": {
      body: { startTime: later("09:00:00"), endTime: later("17:00:00") },
    },
    "POST /api/organizations/{organizationId}/locations/{locationId}/schedules/drafts": {
      body: { startTime: later("09:00:00"), endTime: later("17:00:00") },
    },
    "GET /api/organizations/{organizationId}/locations/{locationId}/schedules/eligibility": {
      query: { startTime: later("09:00:00"), endTime: later("17:00:00") },
    },
    "POST /api/organizations/{organizationId}/locations/{locationId}/open-shifts": {
      body: { startDate: later("09:00:00"), endDate: later("17:00:00") },
    },
    "POST /api/organizations/{organizationId}/locations/{locationId}/schedules/bulk-copy": { body: { toStartDate: "2027-07-05" } },
    // A swap of the intruder's entry with their colleague's (readyForWrites).
    "POST /api/organizations/{organizationId}/locations/{locationId}/shift-requests": { body: { type: "SWAP" } },
    "POST /api/timesheets": { body: { breaks: [{ startTime: later("12:00:00"), endTime: later("12:30:00") }] } },
    "PATCH /api/timesheets/{id}": { body: { breaks: [{ startTime: yesterday("12:00:00"), endTime: yesterday("12:30:00") }] } },
  };

  interface Intruder {
    name: string;
    records: RecordFixture;
    token: string;
    partnerLevel: boolean;
  }
  const intruders: Intruder[] = [];
  beforeAll(async () => {
    const [sibling, stranger] = await Promise.all([
      createRecordFixture().then(readyForWrites),
      createRecordFixture(SECOND_PARTNER).then(readyForWrites),
    ]);
    intruders.push(
      { name: "the same partner's other organization's admin", records: sibling, token: sibling.org.adminToken, partnerLevel: false },
      { name: "another partner's organization's admin", records: stranger, token: stranger.org.adminToken, partnerLevel: false },
      {
        name: "another partner's partner-level token",
        records: stranger,
        token: await accessToken({}, SECOND_PARTNER),
        partnerLevel: true,
      },
    );
  }, 60_000);

  /**
   * The intruder's records in a state their writes accept, so that only the foreign reference is refused: a pending
   * time-off request and a schedule entry yet to start.
   */
  async function readyForWrites(records: RecordFixture): Promise<RecordFixture> {
    const { org, ids } = records;
    const admin = { token: org.adminToken };
    const pending = await api("POST", `/api/organizations/${org.id}/time-off-requests`, {
      ...admin,
      body: {
        workerId: ids.staffmembers,
        policyId: ids.policies,
        startTime: "2027-09-01T09:00:00Z",
        endTime: "2027-09-01T17:00:00Z",
        isAllDay: false,
      },
    });
    const entry = (employeeId: string) =>
      api("POST", `/api/organizations/${org.id}/locations/${ids.locations}/schedules`, {
        ...admin,
        body: { employeeId, roleId: ids.roles, startTime: "2027-08-03T09:00:00Z", endTime: "2027-08-03T17:00:00Z" },
      });
    const colleague = await createStaffMember(org, { locationIds: [ids.locations!], roleIds: [ids.roles!] });
    const [own, theirs] = await Promise.all([entry(ids.staffmembers!), entry(colleague.id)]);
    for (const res of [pending, own, theirs]) if (res.status !== 201) throw new Error(`intruder's records: ${res.status} ${res.text}`);
    return {
      ...records,
      ids: {
        ...ids,
        "time-off-requests": pending.body.id,
        schedules: own.body.id,
        "staffmembers/colleague": colleague.id,
        "schedules/colleague": theirs.body.id,
      },
    };
  }

  const callerScoped = (op: WalkedOperation) => op.queryParams.some((p) => p.name === "organizationId");
  it("covers the timesheet operations that take the organization from the token or ?organizationId=", () => {
    const tried = authenticated.filter((op) => namesRecords(document, op)).map((op) => op.name);
    const callerScopedOps = authenticated.filter((op) => op.path.startsWith("/api/timesheets") && callerScoped(op));
    expect(callerScopedOps.length).toBeGreaterThanOrEqual(12);
    for (const op of callerScopedOps) expect(tried).toContain(op.name);
  });

  // Each reference is tried once, by the intruders in turn (offset per operation): every intruder meets every kind of
  // lookup across the matrix at half the requests of trying each reference with each.
  authenticated
    .filter((op) => namesRecords(document, op))
    .forEach((op, turn) => {
      it(`${op.name} refuses another organization's records to the admin of their own and changes nothing`, async () => {
        const applicable = intruders.filter((intruder) => !intruder.partnerLevel || callerScoped(op));
        const sent = applicable.map((intruder) =>
          foreignRequests(document, op, fixture, intruder.records, { ...VALID[op.name], partnerLevel: intruder.partnerLevel }),
        );
        const before = await snapshot();
        const wrong: string[] = [];
        for (let i = 0; i < sent[0]!.length; i++) {
          const by = (turn + i) % applicable.length;
          const foreign = sent[by]![i]!;
          // The kiosk operations take the intruder organization's device token.
          const token = op.path.startsWith("/api/kiosk/") ? applicable[by]!.records.deviceToken : applicable[by]!.token;
          const verdict = foreignVerdict(op, foreign, await sendToWorker(foreign.request, token), fixture);
          if (verdict) wrong.push(`${applicable[by]!.name}: ${verdict}`);
        }
        expect(wrong).toEqual([]);
        expect(changes(before, await snapshot())).toEqual([]);
      });
    });
});

describe("tenancy matrix harness", () => {
  const target = () => withPathIds.find((op) => op.name === "GET /api/organizations/{organization_id}/locations/{id}")!;

  it("fails for a path parameter the fixture has no record for", () => {
    expect(() => fixtureId(fixture, "/api/organizations/{organization_id}/widgets/{widgetId}", "widgetId")).toThrow(
      "add a fixture id for {widgetId} of /api/organizations/{organization_id}/widgets/{widgetId} (path key 'widgets') in test/helpers/record-fixture.ts",
    );
  });

  it("fails when an operation answers another organization's admin, or answers 403 instead of 404", async () => {
    const leaking: Send = async (request, token) => ({ ...(await sendToWorker(request, token)), status: 200 });
    expect(await refusal(document, target(), fixture, fixture.other.adminToken, 404, leaking)).toMatch(/answered 200, expected 404/);
    const forbidding: Send = async (request, token) => ({ ...(await sendToWorker(request, token)), status: 403 });
    expect(await refusal(document, target(), fixture, fixture.other.adminToken, 404, forbidding)).toMatch(/answered 403, expected 404/);
  });

  it("fails when a record of another organization is shown, written, or refused for another reason", async () => {
    const location = withPathIds.find((op) => op.name === "GET /api/organizations/{organization_id}/locations/{id}")!;
    const intruder = await createRecordFixture();
    const [foreign] = foreignRequests(document, location, fixture, intruder);
    expect(foreign!.request.path).toBe(`/api/organizations/${intruder.org.id}/locations/${fixture.ids.locations}`);
    const answer = (status: number, body: unknown) => ({ status, contentType: "application/problem+json", text: JSON.stringify(body) });
    expect(foreignVerdict(location, foreign!, await sendToWorker(foreign!.request, intruder.org.adminToken), fixture)).toBeNull();
    // An answer the document does not declare fails too, after the tenancy verdicts below.
    expect(foreignVerdict(location, foreign!, answer(404, { code: "LOCATION_NOT_FOUND" }), fixture)).toMatch(/schema refuses/);
    const shown = { ...answer(200, { id: fixture.ids.locations }), contentType: "application/json" };
    expect(foreignVerdict(location, foreign!, shown, fixture)).toMatch(/showed the victim's locations/);
    expect(foreignVerdict(location, foreign!, answer(404, { code: "ORGANIZATION_NOT_FOUND" }), fixture)).toMatch(/caller's own/);
    const otherField = answer(400, { code: "VALIDATION_FAILED", errors: [{ path: "endTime", message: "x" }] });
    expect(foreignVerdict(location, foreign!, otherField, fixture)).toMatch(/naming \["endTime"\], not id/);
    const write = withPathIds.find((op) => op.name === "PATCH /api/organizations/{organization_id}/locations/{id}")!;
    const [patch] = foreignRequests(document, write, fixture, intruder);
    expect(foreignVerdict(write, patch!, { ...answer(200, {}), contentType: "application/json" }, fixture)).toMatch(/answered 200/);
  });

  it("fails when the employee's expectation is not what the route does", async () => {
    expect(await refusal(document, target(), fixture, fixture.employeeToken, 200)).toMatch(/answered 403, expected 200/);
  });
});
