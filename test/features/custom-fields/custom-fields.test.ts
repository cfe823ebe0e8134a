import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization, type OrganizationFixture, unique } from "../../helpers/fixtures";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";

const fieldsPath = (org: OrganizationFixture, suffix = "") => `/api/organizations/${org.id}/custom-fields${suffix}`;

type Field = {
  id: string;
  name: string;
  type: string;
  options: string[] | null;
  pattern: string | null;
  required: boolean;
  active: boolean;
};

async function createField(org: OrganizationFixture, body: Record<string, unknown> = {}): Promise<Field> {
  const res = await api("POST", fieldsPath(org), { token: org.adminToken, body: { name: unique("F"), type: "TEXT", ...body } });
  if (res.status !== 201) throw new Error(`custom field: ${res.status} ${res.text}`);
  return res.body;
}

const countFields = async (org: OrganizationFixture) =>
  (await tenantDb().prepare("SELECT COUNT(*) AS n FROM custom_fields WHERE organization_id = ?").bind(org.id).first<{ n: number }>())!.n;

const feed = async (org: OrganizationFixture) =>
  ((await api("GET", `/api/organizations/${org.id}/events?limit=500`, { token: org.adminToken })).body as { type: string; data: any }[])
    .filter((e) => e.type.startsWith("custom_field."))
    .map((e) => [e.type, e.data] as const);

describe("custom fields", () => {
  it("POST creates TEXT and LIST fields with the contract's fields; GET answers them; the list pages", async () => {
    const org = await createOrganization();
    const res = await api("POST", fieldsPath(org), {
      token: org.adminToken,
      body: { name: "Job number", type: "TEXT", pattern: "[A-Z]{2}-\\d{4}", required: true },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Job number",
      type: "TEXT",
      options: null,
      pattern: "[A-Z]{2}-\\d{4}",
      required: true,
      active: true,
      deletedAt: null,
    });
    expect(typeof res.body.createdAt).toBe("string");
    expect(typeof res.body.updatedAt).toBe("string");
    expect(res.headers.get("ETag")).toBeTruthy();
    const list = await createField(org, { name: "Site", type: "LIST", options: ["Inside", "Outside"] });
    expect(list).toMatchObject({ type: "LIST", options: ["Inside", "Outside"], pattern: null, required: false, active: true });
    const one = await api("GET", fieldsPath(org, `/${list.id}`), { token: org.adminToken });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(list);
    const first = await api("GET", fieldsPath(org, "?limit=1"), { token: org.adminToken });
    expect(first.body.map((f: Field) => f.id)).toEqual([res.body.id]);
    const link = first.headers.get("Link")!;
    const next = await api("GET", link.slice(1, link.indexOf(">")), { token: org.adminToken });
    expect(next.body.map((f: Field) => f.id)).toEqual([list.id]);
  });

  it.each([
    [{ type: "LIST" }, ["options"]],
    [{ type: "LIST", options: [] }, ["options"]],
    [{ type: "LIST", options: ["a", "a"] }, ["options"]],
    [{ type: "LIST", options: ["a", ""] }, ["options"]],
    [{ type: "LIST", options: Array.from({ length: 101 }, (_, i) => `o${i}`) }, ["options"]],
    [{ type: "LIST", options: ["a"], pattern: "a" }, ["pattern"]],
    [{ type: "TEXT", options: ["a"] }, ["options"]],
    [{ type: "TEXT", pattern: "(" }, ["pattern"]],
    [{ type: "TEXT", pattern: "(?=a)a" }, ["pattern"]], // RE2 has no lookarounds
    [{ type: "TEXT", pattern: "(x)\\1" }, ["pattern"]], // nor back-references
    [{ type: "TEXT", pattern: "x".repeat(201) }, ["pattern"]],
    [{ type: "DATE" }, ["type"]],
    [{ type: "TEXT", name: "" }, ["name"]],
    [{ type: "TEXT", required: "yes" }, ["required"]],
  ])("POST %j is 400 naming %j; nothing is written", async (body, paths) => {
    const org = await createOrganization();
    expectInvalid(await api("POST", fieldsPath(org), { token: org.adminToken, body: { name: "Field", ...body } }), paths);
    expect(await countFields(org)).toBe(0);
  });

  it("a name is unique among the active fields (409 CUSTOM_FIELD_NAME_TAKEN), free again once inactive or deleted", async () => {
    const org = await createOrganization();
    const first = await createField(org, { name: "Job" });
    const again = await api("POST", fieldsPath(org), { token: org.adminToken, body: { name: "Job", type: "TEXT" } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("CUSTOM_FIELD_NAME_TAKEN");
    const other = await createField(org, { name: "Other" });
    const renamed = await api("PATCH", fieldsPath(org, `/${other.id}`), { token: org.adminToken, body: { name: "Job" } });
    expect(renamed.status).toBe(409);
    expect(renamed.body.code).toBe("CUSTOM_FIELD_NAME_TAKEN");
    // Another organization's names are its own.
    await createField(await createOrganization(), { name: "Job" });
    // Inactive: the name is free; reactivating the first while another holds it is refused.
    expect((await api("PATCH", fieldsPath(org, `/${first.id}`), { token: org.adminToken, body: { active: false } })).status).toBe(200);
    const second = await createField(org, { name: "Job" });
    const back = await api("PATCH", fieldsPath(org, `/${first.id}`), { token: org.adminToken, body: { active: true } });
    expect(back.status).toBe(409);
    expect(back.body.code).toBe("CUSTOM_FIELD_NAME_TAKEN");
    expect((await api("DELETE", fieldsPath(org, `/${second.id}`), { token: org.adminToken })).status).toBe(200);
    expect((await api("PATCH", fieldsPath(org, `/${first.id}`), { token: org.adminToken, body: { active: true } })).status).toBe(200);
  });

  it("PATCH changes what it names; options belong to LIST fields and patterns to TEXT fields (400 naming them)", async () => {
    const org = await createOrganization();
    const text = await createField(org, { pattern: "\\d+" });
    const list = await createField(org, { type: "LIST", options: ["a"] });
    const patched = await api("PATCH", fieldsPath(org, `/${text.id}`), {
      token: org.adminToken,
      body: { pattern: null, required: true, name: "Renamed" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: text.id, name: "Renamed", type: "TEXT", pattern: null, required: true });
    const options = await api("PATCH", fieldsPath(org, `/${list.id}`), { token: org.adminToken, body: { options: ["a", "b"] } });
    expect(options.body).toMatchObject({ options: ["a", "b"] });
    expectInvalid(await api("PATCH", fieldsPath(org, `/${text.id}`), { token: org.adminToken, body: { options: ["x"] } }), ["options"]);
    expectInvalid(await api("PATCH", fieldsPath(org, `/${list.id}`), { token: org.adminToken, body: { pattern: "x" } }), ["pattern"]);
    expectInvalid(await api("PATCH", fieldsPath(org, `/${text.id}`), { token: org.adminToken, body: { pattern: "(?<=a)b" } }), ["pattern"]);
    expectInvalid(await api("PATCH", fieldsPath(org, `/${list.id}`), { token: org.adminToken, body: { options: ["b", "b"] } }), [
      "options",
    ]);
    const after = await api("GET", fieldsPath(org, `/${list.id}`), { token: org.adminToken });
    expect(after.body).toMatchObject({ type: "LIST", options: ["a", "b"], pattern: null });
  });

  it("DELETE is a soft delete: inactive, then 404; listed with includeDeleted; each write records its event", async () => {
    const org = await createOrganization();
    const field = await createField(org, { name: "Gone" });
    const patched = await api("PATCH", fieldsPath(org, `/${field.id}`), { token: org.adminToken, body: { required: true } });
    const deleted = await api("DELETE", fieldsPath(org, `/${field.id}`), { token: org.adminToken });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: field.id, active: false, deletedAt: expect.any(String) });
    expect((await api("GET", fieldsPath(org, `/${field.id}`), { token: org.adminToken })).body.code).toBe("CUSTOM_FIELD_NOT_FOUND");
    const again = await api("DELETE", fieldsPath(org, `/${field.id}`), { token: org.adminToken });
    expect(again.status).toBe(404);
    expect((await api("GET", fieldsPath(org), { token: org.adminToken })).body).toEqual([]);
    const all = await api("GET", fieldsPath(org, "?includeDeleted=true"), { token: org.adminToken });
    expect(all.body.map((f: Field) => [f.id, f.active])).toEqual([[field.id, false]]);
    expect(await feed(org)).toEqual([
      ["custom_field.created", field],
      ["custom_field.updated", patched.body],
      ["custom_field.deleted", deleted.body],
    ]);
  });

  it("a staff member reads the fields but may not write them; another organization's field is 404", async () => {
    const org = await createOrganization();
    const field = await createField(org);
    const staff = await createStaffMember(org, { accessRoleName: "Employee" });
    const token = await staffToken(org, staff.id);
    expect((await api("GET", fieldsPath(org), { token })).status).toBe(200);
    expect((await api("GET", fieldsPath(org, `/${field.id}`), { token })).status).toBe(200);
    for (const [method, suffix, body] of [
      ["POST", "", { name: "X", type: "TEXT" }],
      ["PATCH", `/${field.id}`, { required: true }],
      ["DELETE", `/${field.id}`, undefined],
    ] as const) {
      const res = await api(method, fieldsPath(org, suffix), { token, body });
      expect(res.status, `${method} ${suffix}`).toBe(403);
      expect(res.body.code).toBe("FORBIDDEN");
    }
    const other = await createOrganization();
    for (const method of ["GET", "DELETE"]) {
      const res = await api(method, fieldsPath(other, `/${field.id}`), { token: other.adminToken });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("CUSTOM_FIELD_NOT_FOUND");
    }
    const patch = await api("PATCH", fieldsPath(other, `/${field.id}`), { token: other.adminToken, body: { required: true } });
    expect(patch.body.code).toBe("CUSTOM_FIELD_NOT_FOUND");
    expect((await api("GET", fieldsPath(org, `/${field.id}`), { token: org.adminToken })).body).toEqual(field);
  });
});
