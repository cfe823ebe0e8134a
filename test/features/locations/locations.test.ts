import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization, type OrganizationFixture, unique } from "../../helpers/fixtures";
import { createLocation, sampleLocation } from "../../helpers/locations";
import { accessToken } from "../../helpers/tokens";

const base = (org: OrganizationFixture) => `/api/organizations/${org.id}/locations`;
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
const paths = (res: { body: { errors?: { path: string }[] } }) => (res.body.errors ?? []).map((e) => e.path).sort();

/** A token for a new staff member holding one of the organization's default access roles. */
async function staffToken(org: OrganizationFixture, accessRoleName: "Employee" | "Manager") {
  const res = await api("POST", `/api/organizations/${org.id}/staffmembers`, {
    token: org.adminToken,
    body: { name: unique("Staff"), accessRoleName },
  });
  expect(res.status, `POST staffmembers: ${res.text}`).toBe(201);
  return accessToken({ organizationId: org.id, employeeId: res.body.id });
}

describe("locations", () => {
  it("POST /locations creates the brief's location and GET reads it back by id and by external id", async () => {
    const org = await createOrganization();
    const externalId = unique("store");
    const res = await api("POST", base(org), { token: org.adminToken, body: { ...sampleLocation(), externalId } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        ...Object.keys(sampleLocation()),
        "externalId",
        "timezone",
        "geofenceMode",
        "kioskPhotoRequired",
        "id",
        "organizationId",
        "active",
        "createdAt",
        "updatedAt",
        "deletedAt",
      ].sort(),
    );
    expect(res.body).toMatchObject({
      ...sampleLocation(),
      externalId,
      zipCode: 10001,
      longitude: "-73.985428",
      latitude: "40.748817",
      timezone: "UTC",
      geofenceMode: "block",
      organizationId: org.id,
      active: true,
      deletedAt: null,
    });
    expect(res.body.createdAt).toMatch(/Z$/);
    const byId = await api("GET", `${base(org)}/${res.body.id}`, { token: org.adminToken });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(res.body);
    const byExternal = await api("GET", `${base(org)}/external/${externalId}`, { token: org.adminToken });
    expect(byExternal.status).toBe(200);
    expect(byExternal.body).toEqual(res.body);
  });

  it("POST /locations needs only a name and keeps the extra fields it is given", async () => {
    const org = await createOrganization();
    const res = await api("POST", base(org), {
      token: org.adminToken,
      body: { name: "Pop-up", timezone: "America/New_York", geofenceMode: "flag" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Pop-up",
      latitude: null,
      longitude: null,
      zipCode: null,
      timezone: "America/New_York",
      geofenceMode: "flag",
    });
  });

  it("POST /locations rejects invalid fields with a problem naming each", async () => {
    const org = await createOrganization();
    const res = await api("POST", base(org), {
      token: org.adminToken,
      body: {
        name: "",
        website: "not a url",
        country: "XX",
        zipCode: "10001",
        latitude: "91",
        longitude: "-181",
        clock_in_distance_centimeters: -1,
        clock_out_distance_centimeters: 2.5,
        timezone: "Mars/Olympus",
        geofenceMode: "maybe",
      },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("Content-Type")).toContain("application/problem+json");
    expect(res.body).toMatchObject({ status: 400, title: "Bad Request", code: "VALIDATION_FAILED" });
    expect(paths(res)).toEqual(
      [
        "name",
        "website",
        "country",
        "zipCode",
        "latitude",
        "longitude",
        "clock_in_distance_centimeters",
        "clock_out_distance_centimeters",
        "timezone",
        "geofenceMode",
      ].sort(),
    );
    const list = await api("GET", base(org), { token: org.adminToken });
    expect(list.body).toEqual([]);
  });

  it("POST /locations refuses numeric coordinates: the contract's coordinates are strings", async () => {
    const org = await createOrganization();
    const res = await api("POST", base(org), { token: org.adminToken, body: { name: "X", latitude: 40.748817, longitude: -73.985428 } });
    expect(res.status).toBe(400);
    expect(paths(res)).toEqual(["latitude", "longitude"]);
    const message = (path: string) => res.body.errors.find((e: { path: string }) => e.path === path).message;
    expect(message("latitude")).toBe('must be decimal degrees as a string such as "40.748817", not a number');
    expect(message("longitude")).toBe('must be decimal degrees as a string such as "-73.985428", not a number');
  });

  it("POST /locations refuses one coordinate without the other, and a name that is missing", async () => {
    const org = await createOrganization();
    const half = await api("POST", base(org), { token: org.adminToken, body: { name: "X", latitude: "40.7" } });
    expect(half.status).toBe(400);
    expect(paths(half)).toEqual(["longitude"]);
    const nameless = await api("POST", base(org), { token: org.adminToken, body: { city: "Paris" } });
    expect(nameless.status).toBe(400);
    expect(paths(nameless)).toEqual(["name"]);
  });

  it("POST /locations refuses a duplicate externalId with 409, and so does PATCH", async () => {
    const org = await createOrganization();
    const externalId = unique("store");
    await createLocation(org, { externalId });
    const again = await api("POST", base(org), { token: org.adminToken, body: { name: "Twin", externalId } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("EXTERNAL_ID_TAKEN");
    const other = await createLocation(org, { externalId: unique("store") });
    const patched = await api("PATCH", `${base(org)}/${other.id}`, { token: org.adminToken, body: { externalId } });
    expect(patched.status).toBe(409);
    expect(patched.body.code).toBe("EXTERNAL_ID_TAKEN");
    // The same externalId in another organization is fine.
    expect((await createLocation(await createOrganization(), { externalId })).externalId).toBe(externalId);
  });

  it("refuses an externalId made of dot segments (400 naming it) on create, patch and sync; '...' or '..a' are ids", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const countBefore = (await api("GET", `${base(org)}?limit=100`, { token: org.adminToken })).body.length;
    for (const externalId of [".", "..", "%2e", "%2E%2e", ".%2e", "%2E."]) {
      const created = await api("POST", base(org), { token: org.adminToken, body: { name: "Dots", externalId } });
      expect(created.status, externalId).toBe(400);
      expect(created.body.code).toBe("VALIDATION_FAILED");
      expect(paths(created)).toEqual(["externalId"]);
      const patched = await api("PATCH", `${base(org)}/${location.id}`, { token: org.adminToken, body: { externalId } });
      expect(patched.status, externalId).toBe(400);
      expect(paths(patched)).toEqual(["externalId"]);
      const synced = await api("POST", `${base(org)}/sync`, { token: org.adminToken, body: { records: [{ name: "Dots", externalId }] } });
      expect(synced.status, externalId).toBe(400);
      const staff = await api("POST", `/api/organizations/${org.id}/staffmembers`, {
        token: org.adminToken,
        body: { name: "Dots", externalId },
      });
      expect(staff.status, externalId).toBe(400);
      expect(paths(staff)).toEqual(["externalId"]);
    }
    expect((await api("GET", `${base(org)}?limit=100`, { token: org.adminToken })).body.length).toBe(countBefore);
    expect((await api("GET", `${base(org)}/${location.id}`, { token: org.adminToken })).body.externalId).toBe(location.externalId);
    for (const externalId of ["...", "..a", "a..", ".%2f"]) {
      const created = await api("POST", base(org), { token: org.adminToken, body: { name: "Not dots", externalId } });
      expect(created.status, externalId).toBe(201);
    }
  });

  it("a path whose last id a URL parser resolves away (../., %2e%2e) is 404 ROUTE_NOT_FOUND, never the organization", async () => {
    const org = await createOrganization();
    await createLocation(org);
    for (const id of ["%2e%2e", "..", ".%2E", "%2e", "."]) {
      const read = await api("GET", `${base(org)}/${id}`, { token: org.adminToken });
      expect(read.status, id).toBe(404);
      expect(read.body.code).toBe("ROUTE_NOT_FOUND");
      expect((await api("GET", `${base(org)}/external/${id}`, { token: org.adminToken })).status, id).toBe(404);
      const patched = await api("PATCH", `${base(org)}/${id}`, { token: org.adminToken, body: { name: "Renamed" } });
      expect(patched.status, id).toBe(404);
    }
    // What a client that resolves the path sends for DELETE …/locations/..: the organization stays.
    const deleted = await api("DELETE", `${base(org)}/..`, { token: org.adminToken });
    expect(deleted.status).toBe(404);
    expect(deleted.body.code).toBe("ROUTE_NOT_FOUND");
    const still = await api("GET", `/api/organizations/${org.id}`, { token: org.adminToken });
    expect(still.status).toBe(200);
    expect(still.body.deletedAt ?? null).toBeNull();
  });

  it("PATCH /locations/{id} updates the fields sent, clears nulls and answers a new updatedAt", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    await tick();
    const res = await api("PATCH", `${base(org)}/${location.id}`, {
      token: org.adminToken,
      body: { name: "Renamed", addressLine2: null, zipCode: 10002, clock_in_distance_centimeters: 5000, timezone: "America/New_York" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ...sampleLocation(),
      name: "Renamed",
      addressLine2: null,
      zipCode: 10002,
      clock_in_distance_centimeters: 5000,
      timezone: "America/New_York",
    });
    expect(res.body.updatedAt > location.updatedAt).toBe(true);
    expect(res.body.createdAt).toBe(location.createdAt);
    const read = await api("GET", `${base(org)}/${location.id}`, { token: org.adminToken });
    expect(read.body).toEqual(res.body);
  });

  it("PATCH /locations/{id} rejects bad values and changes nothing", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    for (const [body, path] of [
      [{ name: null }, "name"],
      [{ latitude: "10.5" }, "longitude"],
      [{ latitude: null, longitude: "1" }, "latitude"],
      [{ longitude: "181", latitude: "0" }, "longitude"],
      [{ country: "usa" }, "country"],
      [{ break_end_distance_centimeters: -5 }, "break_end_distance_centimeters"],
    ] as const) {
      const res = await api("PATCH", `${base(org)}/${location.id}`, { token: org.adminToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(paths(res)).toEqual([path]);
    }
    const read = await api("GET", `${base(org)}/${location.id}`, { token: org.adminToken });
    expect(read.body).toEqual(location);
  });

  it("PATCH /locations/{id} clears both coordinates together", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const res = await api("PATCH", `${base(org)}/${location.id}`, { token: org.adminToken, body: { latitude: null, longitude: null } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ latitude: null, longitude: null });
  });

  it("DELETE /locations/{id} soft-deletes: 200 with the record, then reads are 404 unless includeDeleted", async () => {
    const org = await createOrganization();
    const location = await createLocation(org, { externalId: unique("store") });
    const res = await api("DELETE", `${base(org)}/${location.id}`, { token: org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: location.id, name: location.name, active: false });
    expect(res.body.deletedAt).toMatch(/Z$/);
    for (const [method, path] of [
      ["GET", `${base(org)}/${location.id}`],
      ["GET", `${base(org)}/external/${location.externalId}`],
      ["PATCH", `${base(org)}/${location.id}`],
      ["DELETE", `${base(org)}/${location.id}`],
    ] as const) {
      const gone = await api(method, path, { token: org.adminToken, body: method === "PATCH" ? { name: "X" } : undefined });
      expect(gone.status, `${method} ${path}`).toBe(404);
      expect(gone.body.code).toBe("LOCATION_NOT_FOUND");
    }
    expect((await api("GET", base(org), { token: org.adminToken })).body).toEqual([]);
    const withDeleted = await api("GET", `${base(org)}?includeDeleted=true`, { token: org.adminToken });
    expect(withDeleted.body).toEqual([res.body]);
  });

  it("GET /locations lists in pages with a Link header until the last page", async () => {
    const org = await createOrganization();
    const created = [];
    for (let i = 0; i < 5; i++) created.push((await createLocation(org, { name: `Store ${i}` })).id);
    const seen: string[] = [];
    let next: string | null = `${base(org)}?limit=2`;
    const sizes: number[] = [];
    while (next) {
      const page = await api("GET", next, { token: org.adminToken });
      expect(page.status).toBe(200);
      sizes.push(page.body.length);
      seen.push(...page.body.map((l: { id: string }) => l.id));
      const link = page.headers.get("Link");
      if (link) expect(link).toMatch(/^<\/api\/organizations\/[^/]+\/locations\?limit=2&cursor=[^>]+>; rel="next"$/);
      next = link ? link.slice(1, link.indexOf(">")) : null;
    }
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(created);
  });

  it("GET /locations?name filters by a case-insensitive contains, wildcards taken literally", async () => {
    const org = await createOrganization();
    const main = await createLocation(org, { name: "Main Street Store" });
    const mainland = await createLocation(org, { name: "The MAINLAND depot" });
    await createLocation(org, { name: "Harbour Kiosk" });
    const percent = await createLocation(org, { name: "100% Juice" });
    const res = await api("GET", `${base(org)}?name=main`, { token: org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.map((l: { id: string }) => l.id)).toEqual([main.id, mainland.id]);
    const literal = await api("GET", `${base(org)}?name=${encodeURIComponent("0%")}`, { token: org.adminToken });
    expect(literal.body.map((l: { id: string }) => l.id)).toEqual([percent.id]);
    const none = await api("GET", `${base(org)}?name=_`, { token: org.adminToken });
    expect(none.body).toEqual([]);
  });

  it("GET /locations?name takes long, multibyte and wildcard-laden text without a database error", async () => {
    const org = await createOrganization();
    const long = `${"Flagship %_ store ".repeat(10)}end`;
    const longOne = await createLocation(org, { name: long });
    const cafe = await createLocation(org, { name: "Café Zürich — Ünter den Linden ☕" });
    const wild = await createLocation(org, { name: "50%_off\\sale" });
    const search = async (text: string) => {
      const res = await api("GET", `${base(org)}?name=${encodeURIComponent(text)}`, { token: org.adminToken });
      expect(res.status, `${text}: ${res.text}`).toBe(200);
      return res.body.map((l: { id: string }) => l.id);
    };
    expect(await search(long.slice(3, 200))).toEqual([longOne.id]);
    expect(await search("%_".repeat(100))).toEqual([]);
    expect(await search("ü".repeat(100))).toEqual([]);
    expect(await search("Ünter den Linden ☕")).toEqual([cafe.id]);
    expect(await search("CAFÉ ZÜRICH")).toEqual([]);
    expect(await search("CAFé zü")).toEqual([cafe.id]);
    expect(await search("%_OFF\\")).toEqual([wild.id]);
    expect(await search("%")).toEqual([longOne.id, wild.id]);
  });

  it("GET /locations?updatedSince returns only locations changed at or after the instant", async () => {
    const org = await createOrganization();
    const old = await createLocation(org, { name: "Old" });
    const changed = await createLocation(org, { name: "Changed" });
    await tick();
    const since = new Date().toISOString();
    await tick();
    await api("PATCH", `${base(org)}/${changed.id}`, { token: org.adminToken, body: { city: "Boston" } });
    const fresh = await createLocation(org, { name: "Fresh" });
    const res = await api("GET", `${base(org)}?updatedSince=${since}`, { token: org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.map((l: { id: string }) => l.id)).toEqual([changed.id, fresh.id]);
    expect(res.body.map((l: { id: string }) => l.id)).not.toContain(old.id);
  });

  it("GET /locations rejects bad query parameters", async () => {
    const org = await createOrganization();
    for (const query of ["limit=0", "limit=501", "includeDeleted=maybe", "updatedSince=yesterday", "name="]) {
      const res = await api("GET", `${base(org)}?${query}`, { token: org.adminToken });
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe("VALIDATION_FAILED");
    }
  });

  it("unknown locations are 404 on every single-record route", async () => {
    const org = await createOrganization();
    for (const [method, path] of [
      ["GET", `${base(org)}/missing`],
      ["GET", `${base(org)}/external/missing`],
      ["PATCH", `${base(org)}/missing`],
      ["DELETE", `${base(org)}/missing`],
    ] as const) {
      const res = await api(method, path, { token: org.adminToken, body: method === "PATCH" ? { name: "X" } : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ title: "Record Not Found", code: "LOCATION_NOT_FOUND" });
    }
  });

  it("another organization's location is 404, through either organization's path, and stays unchanged", async () => {
    const orgA = await createOrganization();
    const orgB = await createOrganization();
    const location = await createLocation(orgB, { externalId: unique("store") });
    for (const prefix of [base(orgA), base(orgB)]) {
      for (const [method, path] of [
        ["GET", `${prefix}/${location.id}`],
        ["GET", `${prefix}/external/${location.externalId}`],
        ["PATCH", `${prefix}/${location.id}`],
        ["DELETE", `${prefix}/${location.id}`],
      ] as const) {
        const res = await api(method, path, { token: orgA.adminToken, body: method === "PATCH" ? { name: "Hijacked" } : undefined });
        expect(res.status, `${method} ${path}`).toBe(404);
      }
    }
    expect((await api("GET", base(orgB), { token: orgA.adminToken })).status).toBe(404);
    expect((await api("POST", base(orgB), { token: orgA.adminToken, body: { name: "Intruder" } })).status).toBe(404);
    expect((await api("GET", base(orgA), { token: orgA.adminToken })).body).toEqual([]);
    const read = await api("GET", `${base(orgB)}/${location.id}`, { token: orgB.adminToken });
    expect(read.body).toEqual(location);
  });

  it("every location route refuses a missing bearer token with 401", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    for (const [method, path] of [
      ["GET", base(org)],
      ["POST", base(org)],
      ["GET", `${base(org)}/${location.id}`],
      ["GET", `${base(org)}/external/x`],
      ["PATCH", `${base(org)}/${location.id}`],
      ["DELETE", `${base(org)}/${location.id}`],
      ["POST", `${base(org)}/sync`],
    ] as const) {
      const res = await api(method, path, { body: method === "GET" || method === "DELETE" ? undefined : { name: "X" } });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.code).toBe("MISSING_BEARER_TOKEN");
    }
  });

  it("an Employee may neither read nor write locations; a Manager may do both", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const employee = await staffToken(org, "Employee");
    const refused = await api("POST", base(org), { token: employee, body: { name: "Not mine to make" } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ title: "Forbidden", code: "FORBIDDEN" });
    expect((await api("PATCH", `${base(org)}/${location.id}`, { token: employee, body: { name: "X" } })).status).toBe(403);
    expect((await api("DELETE", `${base(org)}/${location.id}`, { token: employee })).status).toBe(403);
    expect((await api("GET", base(org), { token: employee })).status).toBe(403);
    expect((await api("GET", `${base(org)}/${location.id}`, { token: employee })).status).toBe(403);
    const manager = await staffToken(org, "Manager");
    expect((await api("POST", base(org), { token: manager, body: { name: "Managed" } })).status).toBe(201);
    expect((await api("GET", `${base(org)}/${location.id}`, { token: manager })).status).toBe(200);
    const names = (await api("GET", base(org), { token: org.adminToken })).body.map((l: { name: string }) => l.name);
    expect(names).toEqual([location.name, "Managed"]);
  });
});
