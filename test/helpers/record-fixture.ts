import { api } from "./api";
import { createOrganization, type OrganizationFixture, unique } from "./fixtures";
import { createLocation } from "./locations";
import { paramKey } from "./openapi-walk";
import { createStaffMember, staffToken } from "./staff";
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
}

async function created(res: Promise<Awaited<ReturnType<typeof api>>>, what: string) {
  const { status, body, text } = await res;
  if (status !== 200 && status !== 201) throw new Error(`${what}: ${status} ${text}`);
  return body;
}

const yesterday = (time: string) => `${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}T${time}Z`;

/**
 * One record of each kind, for tests driven by the OpenAPI document. A route with a new path parameter needs
 * its record here: create it below and add its id under the parameter's path key to `ids`.
 */
export async function createRecordFixture(): Promise<RecordFixture> {
  const org = await createOrganization({ externalId: unique("org-ext") });
  const other = await createOrganization();
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
      body: { employeeId: subject.id, locationId: location.id, roleId: role.id, startTime: yesterday("09:00:00"), endTime: yesterday("17:00:00") },
    }),
    "manual shift",
  );
  const webhook = await created(api("POST", `${orgPath}/webhooks`, { ...admin, body: { url: "http://127.0.0.1:9/hook", enabled: false } }), "webhook");
  await created(
    api("POST", `${orgPath}/staffmembers/${subject.id}/locations/${location.id}/clock-in`, { ...admin, body: { ...HERE, roleId: role.id } }),
    "open shift",
  );

  return {
    org,
    other,
    employeeToken: await staffToken(org, bystander.id),
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
      webhooks: webhook.id,
    },
  };
}

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
