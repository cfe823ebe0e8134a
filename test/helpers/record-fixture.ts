import { env } from "cloudflare:test";
import { shardBinding } from "@/data/shards";
import { api } from "./api";
import { createOrganization, type OrganizationFixture, unique } from "./fixtures";
import { enrollDevice, setStaffPin } from "./kiosk";
import { createLocation } from "./locations";
import { paramKey } from "./openapi-walk";
import { shardOf } from "./shards";
import { createStaffMember, staffToken } from "./staff";
import type { Partner } from "./tokens";
import { HERE } from "./workplace";

export interface RecordFixture {
  /** The organization holding one record of each kind, with its admin token. */
  org: OrganizationFixture;
  /** Another organization of the same partner, with its admin token. */
  other: OrganizationFixture;
  /** A staff member of `org` with the permission-less `Employee` access role, who is no route's subject. */
  employeeToken: string;
  /** Record ids by path key (see `paramKey`): the literal segments before the parameter. */
  ids: Record<string, string>;
  /** The token of an enrolled kiosk device of `org`'s location (`ids.devices`), for the kiosk operations. */
  deviceToken: string;
}

async function created(res: Promise<Awaited<ReturnType<typeof api>>>, what: string) {
  const { status, body, text } = await res;
  if (status !== 200 && status !== 201) throw new Error(`${what}: ${status} ${text}`);
  return body;
}

const yesterday = (time: string) => `${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}T${time}Z`;

/**
 * One record of each kind, for tests driven by the OpenAPI document. A route with a new path parameter needs
 * its record here: create it below and add its id under the parameter's path key to `ids`. The organizations are
 * the development partner's unless another is named.
 */
export async function createRecordFixture(partner?: Partner): Promise<RecordFixture> {
  const org = await createOrganization({ externalId: unique("org-ext") }, partner);
  const other = await createOrganization({}, partner);
  const admin = { token: org.adminToken };
  const orgPath = `/api/organizations/${org.id}`;

  const organization = await created(api("GET", orgPath, admin), "organization");
  const location = await createLocation(org, { externalId: unique("loc-ext") });
  const breakType = await created(
    api("POST", `${orgPath}/locations/${location.id}/breaks`, {
      ...admin,
      body: { name: "Lunch", durationMinutes: 30, frequencyMinutes: 360, paid: false },
    }),
    "break type",
  );
  const role = await created(api("POST", `${orgPath}/roles`, { ...admin, body: { name: unique("Role"), hourlyWage: 20 } }), "role");
  const accessRole = await created(
    api("POST", `${orgPath}/access-roles`, { ...admin, body: { name: unique("Lead"), permissions: ["SHIFT_READ"] } }),
    "access role",
  );
  const subject = await createStaffMember(org, { externalId: unique("staff-ext"), locationIds: [location.id], roleIds: [role.id] });
  const bystander = await createStaffMember(org, { accessRoleName: "Employee", locationIds: [location.id] });
  const shift = await created(
    api("POST", "/api/timesheets", {
      ...admin,
      body: {
        employeeId: subject.id,
        locationId: location.id,
        roleId: role.id,
        startTime: yesterday("09:00:00"),
        endTime: yesterday("17:00:00"),
      },
    }),
    "manual shift",
  );
  const schedulePath = `${orgPath}/locations/${location.id}`;
  const entry = (path: string, day: string) =>
    created(
      api("POST", `${schedulePath}/${path}`, {
        ...admin,
        body: { employeeId: subject.id, roleId: role.id, startTime: `${day}T09:00:00Z`, endTime: `${day}T17:00:00Z` },
      }),
      path,
    );
  const published = await entry("schedules", "2026-06-01");
  const draft = await entry("schedules/drafts", "2026-06-02");
  const openShift = await created(
    api("POST", `${schedulePath}/open-shifts`, {
      ...admin,
      body: {
        roleId: role.id,
        startDate: "2026-06-03T09:00:00Z",
        endDate: "2026-06-03T17:00:00Z",
        staffCountRequired: 2,
        requireApproval: true,
        publish: true,
      },
    }),
    "open shift (scheduled)",
  );
  const preference = await created(
    api("POST", `${schedulePath}/open-shifts/${openShift.id}/preferences`, {
      ...admin,
      body: { workerId: subject.id, preference: "PREFERRED" },
    }),
    "open shift preference",
  );
  // The employee's own, so that their self-service preference is refused (ALREADY_CLAIMED) instead of written.
  await created(
    api("POST", `${schedulePath}/open-shifts/${openShift.id}/preferences`, {
      ...admin,
      body: { workerId: bystander.id, preference: "NOT_PREFERRED" },
    }),
    "the employee's preference",
  );
  const webhook = await created(
    api("POST", `${orgPath}/webhooks`, { ...admin, body: { url: "http://127.0.0.1:9/hook", enabled: false } }),
    "webhook",
  );
  // A delivery of the endpoint: its test event's (to an address nothing answers; a test event cannot be replayed).
  const delivery = await api("POST", `${orgPath}/webhooks/${webhook.id}/test`, admin);
  if (delivery.status !== 200) throw new Error(`webhook test: ${delivery.status} ${delivery.text}`);
  // A job answers 202: its record exists from then on (QUEUED until the exports queue works it).
  const exportJob = await api("POST", `${orgPath}/exports`, {
    ...admin,
    body: { kind: "EVENTS", startDate: "2026-03-01", endDate: "2026-03-31" },
  });
  if (exportJob.status !== 202) throw new Error(`export: ${exportJob.status} ${exportJob.text}`);
  // A durable job's row (a large organization's close starts one; no Workflow runs this one).
  const jobId = unique("job");
  await shardBinding(env, await shardOf(org.id))
    .prepare(
      `INSERT INTO jobs (id, organization_id, kind, status, subject, created_at, updated_at) VALUES (?, ?, 'PAY_CLOSE', 'QUEUED', '2026-03-02', ?, ?)`,
    )
    .bind(jobId, org.id, Date.now(), Date.now())
    .run();
  await created(
    api("POST", `${orgPath}/staffmembers/${subject.id}/locations/${location.id}/clock-in`, {
      ...admin,
      body: { ...HERE, roleId: role.id },
    }),
    "open shift",
  );

  // The clock-in above had no published entry: its UNSCHEDULED_SHIFT exception.
  const today = new Date().toISOString().slice(0, 10);
  const [attendanceException] = await created(
    api("GET", `${orgPath}/attendance-exceptions?startDate=${yesterday("").slice(0, 10)}&endDate=${today}`, admin),
    "attendance exceptions",
  );
  const availability = await created(
    api("POST", `${orgPath}/staffmembers/${subject.id}/availability`, {
      ...admin,
      body: { type: "UNAVAILABLE", startTime: "2027-01-04T09:00:00Z", endTime: "2027-01-04T12:00:00Z", recurrence: "FREQ=WEEKLY" },
    }),
    "availability",
  );
  // A swap of a future entry of the subject with a third staff member: nothing the bystander may see or act on.
  const swapWith = await createStaffMember(org, { locationIds: [location.id], roleIds: [role.id] });
  const future = await entry("schedules", "2027-06-08");
  const shiftRequest = await created(
    api("POST", `${schedulePath}/shift-requests`, {
      ...admin,
      body: { type: "SWAP", scheduleEntryId: future.id, targetEmployeeId: swapWith.id },
    }),
    "shift request",
  );
  const payRuleSet = await created(
    api("POST", `${orgPath}/pay-rules`, { ...admin, body: { name: unique("Rules"), effectiveFrom: "2026-01-01", preset: "FLSA" } }),
    "pay rule set",
  );
  const wageRate = await created(
    api("POST", `${orgPath}/wage-rates`, { ...admin, body: { employeeId: subject.id, hourlyRate: 21, effectiveFrom: "2027-01-01" } }),
    "wage rate",
  );
  // The period holding today under the default settings (weekly, from the Monday of the organization's creation week).
  const payPeriodId = new Date(Date.now() - ((new Date().getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);

  const types = await created(api("GET", `${orgPath}/policies/types`, admin), "policy types");
  const policy = await created(
    api("POST", `${orgPath}/policies`, {
      ...admin,
      body: { name: unique("Leave"), typeId: types[0].id, allowNegativeBalance: true, defaultSettings: { assignedStaff: { type: "All" } } },
    }),
    "policy",
  );
  await created(api("PATCH", `${orgPath}/policies/${policy.id}/activate`, admin), "active policy");
  const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const timeOff = await created(
    api("POST", `${orgPath}/time-off-requests`, {
      ...admin,
      body: {
        workerId: subject.id,
        policyId: policy.id,
        startTime: `${inAWeek}T09:00:00Z`,
        endTime: `${inAWeek}T17:00:00Z`,
        isAllDay: false,
      },
    }),
    "time-off request",
  );
  const costCode = await created(
    api("POST", `${orgPath}/cost-codes`, { ...admin, body: { code: unique("CC"), name: "Labor" } }),
    "cost code",
  );
  // Not required: the punches the route-wide tests make clock out without values.
  const customField = await created(
    api("POST", `${orgPath}/custom-fields`, { ...admin, body: { name: unique("CF"), type: "TEXT" } }),
    "custom field",
  );
  const device = await enrollDevice(org, location.id);
  // The subject's PIN is the document's example, so a kiosk punch gets past the PIN to the records its body names.
  await setStaffPin(org, subject.id, "4821");
  // A kiosk photo of the location: a lossless WebP whose bytes are all ASCII, so it travels as text (RIFF of 24 bytes,
  // one VP8L chunk of 12: its signature 2F, a 1×1 header of four zero bytes, then data).
  const photo = await created(
    api("POST", "/api/kiosk/photos", {
      token: device.token,
      body: "RIFF\u0018\u0000\u0000\u0000WEBPVP8L\u000c\u0000\u0000\u0000/\u0000\u0000\u0000\u0000fixture",
      headers: { "Content-Type": "image/webp" },
    }),
    "kiosk photo",
  );
  // The subject's own REST consent (Fair Workweek): only their token gives one.
  const consent = await created(
    api("POST", `${orgPath}/staffmembers/${subject.id}/consents`, { token: await staffToken(org, subject.id), body: { kind: "REST" } }),
    "consent",
  );
  // Approved, so that operation 9 (approved time off) has the subject's request to hide from the bystander.
  await created(api("POST", `${orgPath}/time-off-requests/${timeOff.id}/approve`, admin), "approved time off");

  return {
    org,
    other,
    employeeToken: await staffToken(org, bystander.id),
    deviceToken: device.token,
    ids: {
      organizations: org.id,
      "organizations/external": organization.externalId,
      locations: location.id,
      "locations/external": location.externalId as string,
      breaks: breakType.id,
      roles: role.id,
      "access-roles": accessRole.id,
      staffmembers: subject.id,
      "staffmembers/external": subject.externalId as string,
      timesheets: shift.id,
      policies: policy.id,
      "policies/types": types[0].id,
      "worker-policies": subject.id,
      "time-off-requests": timeOff.id,
      schedules: published.id,
      "schedules/drafts": draft.id,
      "open-shifts": openShift.id,
      preferences: preference.id,
      webhooks: webhook.id,
      deliveries: delivery.body.id,
      exports: exportJob.body.id,
      jobs: jobId,
      "pay-rules": payRuleSet.id,
      "pay-periods": payPeriodId,
      approvals: subject.id,
      availability: availability.id,
      "shift-requests": shiftRequest.id,
      "attendance-exceptions": attendanceException.id,
      "wage-rates": wageRate.id,
      "cost-codes": costCode.id,
      "custom-fields": customField.id,
      devices: device.deviceId,
      photos: photo.photoId,
      consents: consent.id,
    },
  };
}

/** The token that may call an operation on the fixture's records: the kiosk's device token on /api/kiosk/*, else the admin's. */
export const fixtureToken = (fixture: RecordFixture, path: string): string =>
  path.startsWith("/api/kiosk/") ? fixture.deviceToken : fixture.org.adminToken;

/** The fixture's id for a path parameter; a parameter it cannot fill fails with what to add. */
export function fixtureId(fixture: RecordFixture, path: string, param: string): string {
  const key = paramKey(path, param);
  const id = fixture.ids[key];
  if (id === undefined) {
    throw new Error(`add a fixture id for {${param}} of ${path} (path key '${key}') in test/helpers/record-fixture.ts`);
  }
  return id;
}

export const fixturePathValues = (fixture: RecordFixture, path: string, params: { name: string }[]) =>
  Object.fromEntries(params.map((p) => [p.name, fixtureId(fixture, path, p.name)]));
