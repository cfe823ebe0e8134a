import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { unique } from "../helpers/fixtures";
import { createManual } from "../helpers/timesheets";
import { createBreakType, createWorkplace, type Workplace } from "../helpers/workplace";

let counter = 0;
const next = () => ++counter;
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
const tagOf = (record: { updatedAt: string }) => `"${Date.parse(record.updatedAt)}"`;

interface Resource {
  name: string;
  /** A fresh record: its path, the token that may write it, and the record as created. */
  create: (w: Workplace) => Promise<{ path: string; token: string; created: { id: string; updatedAt: string }; etag: string | null }>;
  patch: () => Record<string, unknown>;
  /** Whether the resource has a single-record GET. */
  readable: boolean;
}

const post = async (w: Workplace, path: string, body: Record<string, unknown>) => {
  const res = await api("POST", path, { token: w.org.adminToken, body });
  expect(res.status, res.text).toBe(201);
  return { path: `${path}/${res.body.id}`, token: w.org.adminToken, created: res.body, etag: res.headers.get("ETag") };
};

const o = (w: Workplace) => `/api/organizations/${w.org.id}`;

const resources: Resource[] = [
  {
    name: "organizations",
    create: async (w) => {
      const res = await api("GET", o(w), { token: w.org.adminToken });
      return { path: o(w), token: w.org.adminToken, created: res.body, etag: res.headers.get("ETag") };
    },
    patch: () => ({ name: unique("Org") }),
    readable: true,
  },
  {
    name: "locations",
    create: (w) => post(w, `${o(w)}/locations`, { name: "Store" }),
    patch: () => ({ city: unique("City") }),
    readable: true,
  },
  {
    name: "staff members",
    create: (w) => post(w, `${o(w)}/staffmembers`, { name: "Ada" }),
    patch: () => ({ name: unique("Ada") }),
    readable: true,
  },
  {
    name: "roles",
    create: (w) => post(w, `${o(w)}/roles`, { name: "Barista" }),
    patch: () => ({ name: unique("Barista") }),
    readable: true,
  },
  {
    name: "access roles",
    create: (w) => post(w, `${o(w)}/access-roles`, { name: unique("Ops"), permissions: [] }),
    patch: () => ({ name: unique("Ops") }),
    readable: true,
  },
  {
    name: "break types",
    create: async (w) => {
      const created = await createBreakType(w);
      const path = `${o(w)}/locations/${w.location.id}/breaks/${created.id}`;
      return { path, token: w.org.adminToken, created: created as unknown as { id: string; updatedAt: string }, etag: null };
    },
    patch: () => ({ durationMinutes: next() }),
    readable: false,
  },
  {
    name: "timesheet shifts",
    create: async (w) => {
      const created = await createManual(w, { startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T17:00:00Z" });
      return { path: `/api/timesheets/${created.id}`, token: w.org.adminToken, created, etag: null };
    },
    patch: () => ({ hourlyWage: next() }),
    readable: true,
  },
  {
    name: "schedule entries",
    create: (w) =>
      post(w, `${o(w)}/locations/${w.location.id}/schedules`, {
        employeeId: w.staff.id,
        roleId: w.roleId,
        startTime: "2026-06-01T09:00:00Z",
        endTime: "2026-06-01T17:00:00Z",
      }),
    patch: () => ({ note: unique("Note") }),
    readable: true,
  },
  {
    name: "draft schedule entries",
    create: (w) =>
      post(w, `${o(w)}/locations/${w.location.id}/schedules/drafts`, {
        employeeId: w.staff.id,
        roleId: w.roleId,
        startTime: "2026-06-02T09:00:00Z",
        endTime: "2026-06-02T17:00:00Z",
      }),
    patch: () => ({ note: unique("Note") }),
    readable: true,
  },
  {
    name: "open shifts",
    create: (w) =>
      post(w, `${o(w)}/locations/${w.location.id}/open-shifts`, {
        roleId: w.roleId,
        startDate: "2026-06-03T09:00:00Z",
        endDate: "2026-06-03T17:00:00Z",
        staffCountRequired: 1,
        requireApproval: true,
      }),
    patch: () => ({ staffCountRequired: next() }),
    readable: true,
  },
];

describe.each(resources.filter((r) => r.readable))("conditional GETs of $name", (resource) => {
  it("GET answers the record's ETag, and 304 with no body to a matching If-None-Match", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const { path, token, created } = await resource.create(w);
    const res = await api("GET", path, { token });
    expect(res.status).toBe(200);
    const etag = res.headers.get("ETag");
    expect(etag).toBe(tagOf(res.body));
    expect(etag).toBe(tagOf(created));
    const cached = await api("GET", path, { token, headers: { "If-None-Match": `"1", ${etag}` } });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe("");
    expect(cached.headers.get("ETag")).toBe(etag);
    const other = await api("GET", path, { token, headers: { "If-None-Match": '"1"' } });
    expect(other.status).toBe(200);
    expect(other.body.id).toBe(created.id);
  });
});

describe.each(resources)("conditional writes of $name", (resource) => {
  it("PATCH with the current If-Match writes and answers the new ETag; the old one is then 412 and writes nothing", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const { path, token, created, etag } = await resource.create(w);
    if (etag !== null) expect(etag).toBe(tagOf(created));
    const first = tagOf(created);
    await tick();
    const body = resource.patch();
    const updated = await api("PATCH", path, { token, body, headers: { "If-Match": first } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject(body);
    const second = updated.headers.get("ETag");
    expect(second).toBe(tagOf(updated.body));
    expect(second).not.toBe(first);
    await tick();
    const stale = await api("PATCH", path, { token, body: resource.patch(), headers: { "If-Match": first } });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe("PRECONDITION_FAILED");
    if (resource.readable) {
      const now = await api("GET", path, { token });
      expect(now.body).toMatchObject(body);
      expect(now.headers.get("ETag")).toBe(second);
    }
    const any = await api("PATCH", path, { token, body: resource.patch(), headers: { "If-Match": "*" } });
    expect(any.status).toBe(200);
  });

  it("DELETE with a stale If-Match is 412 and deletes nothing; with the current one it deletes", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const { path, token, created } = await resource.create(w);
    await tick();
    const changed = await api("PATCH", path, { token, body: resource.patch() });
    expect(changed.status).toBe(200);
    const stale = await api("DELETE", path, { token, headers: { "If-Match": tagOf(created) } });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe("PRECONDITION_FAILED");
    if (resource.readable) expect((await api("GET", path, { token })).status).toBe(200);
    const deleted = await api("DELETE", path, { token, headers: { "If-Match": changed.headers.get("ETag")! } });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.headers.get("ETag")).toBe(tagOf(deleted.body));
  });
});

describe("If-Match", () => {
  it("on a missing record is 404, not 412", async () => {
    const w = await createWorkplace();
    for (const path of [`${o(w)}/locations/nope`, `${o(w)}/staffmembers/nope`, `${o(w)}/roles/nope`, `/api/timesheets/nope`]) {
      const res = await api("PATCH", path, { token: w.org.adminToken, body: { name: "X", hourlyWage: 1 }, headers: { "If-Match": '"1"' } });
      expect(res.status, path).toBe(404);
    }
  });

  it("a weak tag never matches (412); a value that is not a list of tags is 400 INVALID_IF_MATCH", async () => {
    const w = await createWorkplace();
    const path = `${o(w)}/locations/${w.location.id}`;
    const current = await api("GET", path, { token: w.org.adminToken });
    const weak = await api("PATCH", path, {
      token: w.org.adminToken,
      body: { city: "A" },
      headers: { "If-Match": `W/${current.headers.get("ETag")}` },
    });
    expect(weak.status).toBe(412);
    for (const value of ["1732283136000", '"1", nope', "**"]) {
      const res = await api("PATCH", path, { token: w.org.adminToken, body: { city: "A" }, headers: { "If-Match": value } });
      expect(res.status, value).toBe(400);
      expect(res.body.code).toBe("INVALID_IF_MATCH");
    }
    expect((await api("GET", path, { token: w.org.adminToken })).body.city).toBe(current.body.city);
  });

  it("is checked by the write itself: of ten concurrent PATCHes sent with the same ETag exactly one lands", async () => {
    const w = await createWorkplace();
    const path = `${o(w)}/locations/${w.location.id}`;
    const etag = (await api("GET", path, { token: w.org.adminToken })).headers.get("ETag")!;
    await tick();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api("PATCH", path, { token: w.org.adminToken, body: { city: `City ${i}` }, headers: { "If-Match": etag } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(412)]);
  });

  it("every write moves the ETag, even ten concurrent ones landing within the same millisecond", async () => {
    const w = await createWorkplace();
    const path = `${o(w)}/roles/${w.roleId}`;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => api("PATCH", path, { token: w.org.adminToken, body: { hourlyWage: i } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.headers.get("ETag"))).size).toBe(10);
  });

  it("a write answers the ETag of the record it created; CORS lets browsers read ETag", async () => {
    const w = await createWorkplace();
    const res = await api("POST", `${o(w)}/roles`, {
      token: w.org.adminToken,
      body: { name: "Cook" },
      headers: { Origin: "https://app.example" },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("ETag")).toBe(tagOf(res.body));
    expect(res.headers.get("Access-Control-Expose-Headers")).toMatch(/\bETag\b/);
    const preflight = await api("OPTIONS", `${o(w)}/roles/${res.body.id}`, {
      headers: {
        Origin: "https://app.example",
        "Access-Control-Request-Method": "PATCH",
        "Access-Control-Request-Headers": "authorization, if-match",
      },
    });
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toMatch(/if-match/i);
  });
});

describe("the OpenAPI document", () => {
  it("declares If-None-Match, ETag and 304 on single-record GETs, and If-Match, ETag and 412 on their writes", async () => {
    const doc = (await api("GET", "/api/openapi.json")).body;
    type Operation = { operationId: string; parameters?: { name: string; in: string }[]; responses: Record<string, { headers?: object }> };
    const operations = new Map<string, Operation>();
    for (const item of Object.values(doc.paths) as Record<string, Operation>[])
      for (const op of Object.values(item)) operations.set(op.operationId, op);
    const header = (op: Operation, name: string) => op.parameters?.some((p) => p.in === "header" && p.name === name);
    const reads = ["getOrganization", "getLocation", "getStaffMember", "getRole", "getAccessRole"];
    const writes = [
      "updateOrganization",
      "deleteOrganization",
      "updateLocation",
      "deleteLocation",
      "updateStaffMember",
      "deleteStaffMember",
      "updateRole",
      "deleteRole",
    ];
    for (const id of reads) {
      const op = operations.get(id);
      expect(op, id).toBeDefined();
      expect(header(op!, "If-None-Match"), id).toBe(true);
      expect(op!.responses["304"], id).toBeDefined();
      expect(op!.responses["200"]!.headers, id).toHaveProperty("ETag");
    }
    for (const id of writes) {
      const op = operations.get(id);
      expect(op, id).toBeDefined();
      expect(header(op!, "If-Match"), id).toBe(true);
      expect(op!.responses["412"], id).toBeDefined();
      expect(op!.responses["200"]!.headers, id).toHaveProperty("ETag");
    }
  });
});
