import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization, unique } from "../../helpers/fixtures";
import { createLocation } from "../../helpers/locations";
import { createStaffMember, staffPath, staffToken } from "../../helpers/staff";
import { partnerToken } from "../../helpers/tokens";

const WIRE_FIELDS = [
  "id",
  "name",
  "email",
  "phoneNumber",
  "organizationId",
  "externalId",
  "externalPayrollId",
  // Issue 46: the staff member's id at each payroll provider.
  "payrollIds",
  "accessRoleId",
  "active",
  "hourlyWage",
  "wageType",
  "employmentType",
  "schoolStudent",
  "currencyCode",
  "birthDate",
  "locationIds",
  "roleIds",
  // Issue 47: the UK 48-hour opt-out (contract "Working time worldwide").
  "workingTimeOptOut",
  "createdAt",
  "updatedAt",
  "deletedAt",
].sort();

const pathsOf = (body: { errors: { path: string }[] }) => body.errors.map((e) => e.path).sort();

describe("staff members: create and read", () => {
  it("POST /staffmembers creates a member with the Employee access role and exactly the wire fields", async () => {
    const org = await createOrganization();
    const res = await api("POST", staffPath(org), { token: org.adminToken, body: { name: "  Ada " } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(WIRE_FIELDS);
    expect(res.body).toMatchObject({
      name: "Ada",
      organizationId: org.id,
      accessRoleId: org.accessRoles.Employee,
      active: true,
      email: null,
      birthDate: null,
      locationIds: [],
      roleIds: [],
      deletedAt: null,
    });
    expect(res.body.createdAt).toMatch(/Z$/);
  });

  it("POST /staffmembers stores every field, resolves accessRoleName and drops duplicate ids", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const body = {
      name: "Grace",
      email: "grace@example.com",
      phoneNumber: "+1 555 010 0199",
      externalId: unique("emp"),
      externalPayrollId: "payroll-9",
      accessRoleName: "Manager",
      hourlyWage: 21.25,
      wageType: "hourly",
      employmentType: "part_time",
      currencyCode: "EUR",
      birthDate: "1990-05-01",
      locationIds: [location.id, location.id],
      roleIds: [org.defaultRoleId],
    };
    const res = await api("POST", staffPath(org), { token: org.adminToken, body });
    expect(res.status).toBe(201);
    const { accessRoleName: _, ...stored } = body;
    expect(res.body).toMatchObject({
      ...stored,
      accessRoleId: org.accessRoles.Manager,
      birthDate: "1990-05-01T00:00:00.000Z",
      locationIds: [location.id],
    });
    const read = await api("GET", staffPath(org, `/${res.body.id}`), { token: org.adminToken });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    const withTime = await api("POST", staffPath(org), {
      token: org.adminToken,
      body: { name: "T", birthDate: "1985-01-02T03:04:05+01:00" },
    });
    expect(withTime.body.birthDate).toBe("1985-01-02T02:04:05.000Z");
  });

  it("POST /staffmembers rejects invalid fields with a problem naming each, and creates nothing", async () => {
    const org = await createOrganization();
    const res = await api("POST", staffPath(org), {
      token: org.adminToken,
      body: {
        email: "not-an-email",
        phoneNumber: "call me",
        currencyCode: "ZZZ",
        employmentType: "intern",
        wageType: "daily",
        hourlyWage: -1,
        birthDate: "yesterday",
        locationIds: "x",
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, title: "Bad Request", code: "VALIDATION_FAILED" });
    expect(pathsOf(res.body)).toEqual(
      ["birthDate", "currencyCode", "email", "employmentType", "hourlyWage", "locationIds", "name", "phoneNumber", "wageType"].sort(),
    );
    const future = await api("POST", staffPath(org), { token: org.adminToken, body: { name: "F", birthDate: "2999-01-01" } });
    expect(pathsOf(future.body)).toEqual(["birthDate"]);
    expect((await api("GET", staffPath(org), { token: org.adminToken })).body).toEqual([]);
  });

  it("POST /staffmembers refuses accessRoleId together with accessRoleName", async () => {
    const org = await createOrganization();
    const res = await api("POST", staffPath(org), {
      token: org.adminToken,
      body: { name: "Both", accessRoleId: org.accessRoles.Manager, accessRoleName: "Manager" },
    });
    expect(res.status).toBe(400);
    expect(pathsOf(res.body)).toEqual(["accessRoleName"]);
  });

  it("POST /staffmembers names unknown, foreign and deleted references with 400 and creates nothing", async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    const foreign = await createLocation(other);
    const deleted = await createLocation(org);
    expect((await api("DELETE", `/api/organizations/${org.id}/locations/${deleted.id}`, { token: org.adminToken })).status).toBe(200);
    const cases: [Record<string, unknown>, string][] = [
      [{ locationIds: ["nope"] }, "locationIds"],
      [{ locationIds: [foreign.id] }, "locationIds"],
      [{ locationIds: [deleted.id] }, "locationIds"],
      [{ roleIds: [other.defaultRoleId] }, "roleIds"],
      [{ accessRoleId: other.accessRoles.Manager }, "accessRoleId"],
      [{ accessRoleName: "Overlord" }, "accessRoleName"],
    ];
    for (const [body, field] of cases) {
      const res = await api("POST", staffPath(org), { token: org.adminToken, body: { name: "Ref", ...body } });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors, JSON.stringify(body)).toEqual([{ path: field, message: expect.stringMatching(/unknown|no access role/) }]);
    }
    const all = await api("POST", staffPath(org), {
      token: org.adminToken,
      body: { name: "Ref", locationIds: ["a"], roleIds: ["b"], accessRoleId: "c" },
    });
    expect(pathsOf(all.body)).toEqual(["accessRoleId", "locationIds", "roleIds"]);
    expect((await api("GET", staffPath(org), { token: org.adminToken })).body).toEqual([]);
  });

  it("POST /staffmembers without an access role is a 400 once the organization has no Employee role", async () => {
    const org = await createOrganization();
    const deleted = await api("DELETE", `/api/organizations/${org.id}/access-roles/${org.accessRoles.Employee}`, { token: org.adminToken });
    expect(deleted.status).toBe(200);
    const res = await api("POST", staffPath(org), { token: org.adminToken, body: { name: "Nobody" } });
    expect(res.status).toBe(400);
    expect(pathsOf(res.body)).toEqual(["accessRoleId"]);
    const named = await api("POST", staffPath(org), { token: org.adminToken, body: { name: "Somebody", accessRoleName: "Manager" } });
    expect(named.status).toBe(201);
  });

  it("POST /staffmembers refuses a duplicate externalId with 409", async () => {
    const org = await createOrganization();
    const externalId = unique("emp");
    await createStaffMember(org, { externalId });
    const res = await api("POST", staffPath(org), { token: org.adminToken, body: { name: "Twin", externalId } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("EXTERNAL_ID_TAKEN");
    const elsewhere = await createOrganization();
    expect((await api("POST", staffPath(elsewhere), { token: elsewhere.adminToken, body: { name: "Twin", externalId } })).status).toBe(201);
  });

  it("GET /staffmembers/{id} is 404 for an unknown id, another organization's member and a foreign path", async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    const foreign = await createStaffMember(other);
    const unknown = await api("GET", staffPath(org, "/nope"), { token: org.adminToken });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ title: "Record Not Found", code: "STAFF_MEMBER_NOT_FOUND" });
    expect((await api("GET", staffPath(org, `/${foreign.id}`), { token: org.adminToken })).status).toBe(404);
    expect((await api("GET", staffPath(other, `/${foreign.id}`), { token: org.adminToken })).status).toBe(404);
  });

  it("path ids over their length limit are a 400 naming the parameter on every route that takes one", async () => {
    const org = await createOrganization();
    const long = "x".repeat(65);
    for (const [method, path, body, param] of [
      ["GET", staffPath(org, `/${long}`), undefined, "id"],
      ["GET", staffPath(org, `/${long}/locations`), undefined, "id"],
      ["GET", staffPath(org, `/external/${"e".repeat(256)}`), undefined, "externalId"],
      ["GET", `/api/organizations/${org.id}/locations/${long}/staffmembers`, undefined, "id"],
      ["PATCH", staffPath(org, `/${long}`), { name: "X" }, "id"],
      ["DELETE", staffPath(org, `/${long}`), undefined, "id"],
    ] as const) {
      const res = await api(method, path, { token: org.adminToken, body });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(pathsOf(res.body), `${method} ${path}`).toEqual([param]);
    }
  });

  it("GET /staffmembers/external/{externalId} finds a live member only", async () => {
    const org = await createOrganization();
    const externalId = unique("emp");
    const member = await createStaffMember(org, { externalId });
    const res = await api("GET", staffPath(org, `/external/${externalId}`), { token: org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(member.id);
    expect((await api("GET", staffPath(org, "/external/missing"), { token: org.adminToken })).status).toBe(404);
    await api("DELETE", staffPath(org, `/${member.id}`), { token: org.adminToken });
    expect((await api("GET", staffPath(org, `/external/${externalId}`), { token: org.adminToken })).status).toBe(404);
    const other = await createOrganization();
    expect((await api("GET", staffPath(org, `/external/${externalId}`), { token: other.adminToken })).status).toBe(404);
  });
});

describe("staff members: lists", () => {
  it("GET /staffmembers pages with a Link header and accepts updatedSince", async () => {
    const org = await createOrganization();
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await createStaffMember(org));
    const first = await api("GET", staffPath(org, "?limit=2"), { token: org.adminToken });
    expect(first.status).toBe(200);
    const seen = [...first.body];
    let link = first.headers.get("Link");
    expect(link).toMatch(/^<\/api\/organizations\/[^/]+\/staffmembers\?limit=2&cursor=[^>]+>; rel="next"$/);
    while (link) {
      const next = await api("GET", link.slice(1, link.indexOf(">")), { token: org.adminToken });
      expect(next.status).toBe(200);
      seen.push(...next.body);
      link = next.headers.get("Link");
    }
    expect(seen.map((s) => s.id)).toEqual(created.map((s) => s.id));
    const later = await api("GET", staffPath(org, `?updatedSince=${encodeURIComponent(created[4]!.updatedAt as string)}`), {
      token: org.adminToken,
    });
    expect(later.body.map((s: { id: string }) => s.id)).toEqual([created[4]!.id]);
    expect((await api("GET", staffPath(org, "?limit=0"), { token: org.adminToken })).status).toBe(400);
    expect((await api("GET", staffPath(org, "?active=maybe"), { token: org.adminToken })).status).toBe(400);
  });

  it("GET /staffmembers filters by locationId, roleId, email and active, and shows deleted ones on request", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const placed = await createStaffMember(org, { locationIds: [location.id], email: "Placed@Example.com" });
    const roled = await createStaffMember(org, { roleIds: [org.defaultRoleId] });
    const inactive = await createStaffMember(org, { active: false });
    const gone = await createStaffMember(org);
    await api("DELETE", staffPath(org, `/${gone.id}`), { token: org.adminToken });
    const ids = async (query: string) => {
      const res = await api("GET", staffPath(org, query), { token: org.adminToken });
      expect(res.status, query).toBe(200);
      return res.body.map((s: { id: string }) => s.id);
    };
    expect(await ids(`?locationId=${location.id}`)).toEqual([placed.id]);
    expect(await ids(`?roleId=${org.defaultRoleId}`)).toEqual([roled.id]);
    expect(await ids("?email=placed@example.COM")).toEqual([placed.id]);
    expect(await ids("?active=false")).toEqual([inactive.id]);
    expect(await ids("?active=true")).toEqual([placed.id, roled.id]);
    expect(await ids("")).toEqual([placed.id, roled.id, inactive.id]);
    expect(await ids("?includeDeleted=true")).toEqual([placed.id, roled.id, inactive.id, gone.id]);
  });

  it("GET /staffmembers/{id}/locations answers the member's live locations in assignment order", async () => {
    const org = await createOrganization();
    const a = await createLocation(org, { name: "A" });
    const b = await createLocation(org, { name: "B" });
    const c = await createLocation(org, { name: "C" });
    const member = await createStaffMember(org, { locationIds: [b.id, a.id, c.id] });
    await api("DELETE", `/api/organizations/${org.id}/locations/${c.id}`, { token: org.adminToken });
    const res = await api("GET", staffPath(org, `/${member.id}/locations`), { token: org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.map((l: { name: string }) => l.name)).toEqual(["B", "A"]);
    expect(res.body[0]).toMatchObject({ id: b.id, organizationId: org.id, deletedAt: null });
    expect((await api("GET", staffPath(org, "/nope/locations"), { token: org.adminToken })).status).toBe(404);
    const other = await createOrganization();
    expect((await api("GET", staffPath(org, `/${member.id}/locations`), { token: other.adminToken })).status).toBe(404);
  });

  it("GET /locations/{id}/staffmembers lists the location's staff, paged, and 404s an unknown location", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const elsewhere = await createLocation(org);
    const first = await createStaffMember(org, { locationIds: [elsewhere.id, location.id] });
    await createStaffMember(org, { locationIds: [elsewhere.id] });
    const second = await createStaffMember(org, { locationIds: [location.id] });
    const path = `/api/organizations/${org.id}/locations/${location.id}/staffmembers`;
    const page = await api("GET", `${path}?limit=1`, { token: org.adminToken });
    expect(page.status).toBe(200);
    expect(page.body.map((s: { id: string }) => s.id)).toEqual([first.id]);
    const link = page.headers.get("Link")!;
    const rest = await api("GET", link.slice(1, link.indexOf(">")), { token: org.adminToken });
    expect(rest.body.map((s: { id: string }) => s.id)).toEqual([second.id]);
    expect(rest.headers.get("Link")).toBeNull();
    const unknown = await api("GET", `/api/organizations/${org.id}/locations/nope/staffmembers`, { token: org.adminToken });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("LOCATION_NOT_FOUND");
    expect((await api("GET", `${path}?limit=501`, { token: org.adminToken })).status).toBe(400);
    const other = await createOrganization();
    expect((await api("GET", path, { token: other.adminToken })).status).toBe(404);
    const foreignLocation = await createLocation(other);
    expect(
      (await api("GET", `/api/organizations/${org.id}/locations/${foreignLocation.id}/staffmembers`, { token: org.adminToken })).status,
    ).toBe(404);
  });
});

describe("staff members: update and delete", () => {
  it("PATCH /staffmembers/{id} changes the given fields, clears nulls and answers a new updatedAt", async () => {
    const org = await createOrganization();
    const member = await createStaffMember(org, { email: "a@example.com", hourlyWage: 15, roleIds: [org.defaultRoleId] });
    await new Promise((r) => setTimeout(r, 5));
    const res = await api("PATCH", staffPath(org, `/${member.id}`), {
      token: org.adminToken,
      body: { name: "Renamed", email: null, accessRoleName: "Manager", employmentType: "seasonal", birthDate: "2000-02-29" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Renamed",
      email: null,
      hourlyWage: 15,
      roleIds: [org.defaultRoleId],
      accessRoleId: org.accessRoles.Manager,
      employmentType: "seasonal",
      birthDate: "2000-02-29T00:00:00.000Z",
    });
    expect(res.body.updatedAt > (member.updatedAt as string)).toBe(true);
    expect((await api("GET", staffPath(org, `/${member.id}`), { token: org.adminToken })).body).toEqual(res.body);
  });

  it("PATCH /staffmembers/{id} refuses bad fields and unknown references with 400, changing nothing", async () => {
    const org = await createOrganization();
    const member = await createStaffMember(org);
    for (const [body, field] of [
      [{ wageType: "weekly" }, "wageType"],
      [{ name: "" }, "name"],
      [{ roleIds: ["ghost"] }, "roleIds"],
      [{ locationIds: ["ghost"] }, "locationIds"],
      [{ accessRoleId: "ghost" }, "accessRoleId"],
      [{ accessRoleId: org.accessRoles.Admin, accessRoleName: "Admin" }, "accessRoleName"],
    ] as const) {
      const res = await api("PATCH", staffPath(org, `/${member.id}`), { token: org.adminToken, body });
      expect(res.status, field).toBe(400);
      expect(pathsOf(res.body), field).toEqual([field]);
    }
    expect((await api("GET", staffPath(org, `/${member.id}`), { token: org.adminToken })).body).toEqual(member);
  });

  it("PATCH /staffmembers/{id} is 404 for unknown or foreign members and 409 for a taken externalId", async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    const taken = unique("emp");
    await createStaffMember(org, { externalId: taken });
    const member = await createStaffMember(org);
    expect((await api("PATCH", staffPath(org, "/nope"), { token: org.adminToken, body: { name: "X" } })).status).toBe(404);
    const foreign = await createStaffMember(other);
    expect((await api("PATCH", staffPath(org, `/${foreign.id}`), { token: org.adminToken, body: { name: "X" } })).status).toBe(404);
    expect((await api("PATCH", staffPath(other, `/${foreign.id}`), { token: org.adminToken, body: { name: "X" } })).status).toBe(404);
    const clash = await api("PATCH", staffPath(org, `/${member.id}`), { token: org.adminToken, body: { externalId: taken } });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe("EXTERNAL_ID_TAKEN");
  });

  it("PATCH active: false keeps the member readable but stops their token exchange", async () => {
    const org = await createOrganization();
    const member = await createStaffMember(org);
    await staffToken(org, member.id);
    const res = await api("PATCH", staffPath(org, `/${member.id}`), { token: org.adminToken, body: { active: false } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ active: false, deletedAt: null });
    const exchange = await api("POST", "/api/auth/exchangeToken", {
      body: { token: await partnerToken({ organizationId: org.id, employeeId: member.id }) },
    });
    expect(exchange.status).toBe(401);
    expect(exchange.body.code).toBe("UNKNOWN_EMPLOYEE");
  });

  it("DELETE /staffmembers/{id} soft-deletes: 200 with the record, then 404", async () => {
    const org = await createOrganization();
    const member = await createStaffMember(org);
    const res = await api("DELETE", staffPath(org, `/${member.id}`), { token: org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: member.id, active: false });
    expect(res.body.deletedAt).toMatch(/Z$/);
    expect((await api("GET", staffPath(org, `/${member.id}`), { token: org.adminToken })).status).toBe(404);
    expect((await api("PATCH", staffPath(org, `/${member.id}`), { token: org.adminToken, body: { name: "Back" } })).status).toBe(404);
    expect((await api("DELETE", staffPath(org, `/${member.id}`), { token: org.adminToken })).status).toBe(404);
    const other = await createOrganization();
    const foreign = await createStaffMember(other);
    expect((await api("DELETE", staffPath(org, `/${foreign.id}`), { token: org.adminToken })).status).toBe(404);
    expect((await api("DELETE", staffPath(other, `/${foreign.id}`), { token: org.adminToken })).status).toBe(404);
  });
});
