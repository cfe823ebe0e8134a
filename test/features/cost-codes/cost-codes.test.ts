import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization, type OrganizationFixture, unique } from "../../helpers/fixtures";
import { requestWithInterference } from "../../helpers/interfering-d1";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";

const codesPath = (org: OrganizationFixture, suffix = "") => `/api/organizations/${org.id}/cost-codes${suffix}`;

type Code = { id: string; parentId: string | null; code: string; name: string; externalId: string | null; active: boolean };

async function createCode(org: OrganizationFixture, body: Record<string, unknown> = {}): Promise<Code> {
  const res = await api("POST", codesPath(org), { token: org.adminToken, body: { code: unique("C"), name: "Code", ...body } });
  if (res.status !== 201) throw new Error(`cost code: ${res.status} ${res.text}`);
  return res.body;
}

/** A chain of `levels` codes, each under the one before; answers them root first. */
async function chain(org: OrganizationFixture, levels: number): Promise<Code[]> {
  const codes: Code[] = [];
  for (let i = 0; i < levels; i++) codes.push(await createCode(org, { parentId: codes.at(-1)?.id ?? null }));
  return codes;
}

const countCodes = async (org: OrganizationFixture) =>
  (await tenantDb().prepare("SELECT COUNT(*) AS n FROM cost_codes WHERE organization_id = ?").bind(org.id).first<{ n: number }>())!.n;

const feed = async (org: OrganizationFixture, prefix: string) =>
  ((await api("GET", `/api/organizations/${org.id}/events?limit=500`, { token: org.adminToken })).body as { type: string; data: unknown }[])
    .filter((e) => e.type.startsWith(prefix))
    .map((e) => [e.type, e.data] as const);

describe("cost codes", () => {
  it("POST creates roots and children with the contract's fields; GET answers them; the list pages", async () => {
    const org = await createOrganization();
    const res = await api("POST", codesPath(org), {
      token: org.adminToken,
      body: { code: "4100", name: "Site labor", externalId: "erp-4100" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      parentId: null,
      code: "4100",
      name: "Site labor",
      externalId: "erp-4100",
      active: true,
      deletedAt: null,
    });
    expect(res.headers.get("ETag")).toBeTruthy();
    const child = await createCode(org, { parentId: res.body.id, code: "4100-1", active: false });
    expect(child).toMatchObject({ parentId: res.body.id, code: "4100-1", externalId: null, active: false });
    const one = await api("GET", codesPath(org, `/${child.id}`), { token: org.adminToken });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(child);
    const first = await api("GET", codesPath(org, "?limit=1"), { token: org.adminToken });
    expect(first.body.map((c: Code) => c.id)).toEqual([res.body.id]);
    const link = first.headers.get("Link")!;
    const next = await api("GET", link.slice(1, link.indexOf(">")), { token: org.adminToken });
    expect(next.body.map((c: Code) => c.id)).toEqual([child.id]);
  });

  it("a code is unique among its live siblings (409 COST_CODE_TAKEN), free under another parent and once deleted", async () => {
    const org = await createOrganization();
    const a = await createCode(org, { code: "A" });
    const b = await createCode(org, { code: "B" });
    const rootAgain = await api("POST", codesPath(org), { token: org.adminToken, body: { code: "A", name: "Again" } });
    expect(rootAgain.status).toBe(409);
    expect(rootAgain.body.code).toBe("COST_CODE_TAKEN");
    await createCode(org, { parentId: a.id, code: "X" });
    await createCode(org, { parentId: b.id, code: "X" });
    const sibling = await api("POST", codesPath(org), { token: org.adminToken, body: { parentId: a.id, code: "X", name: "Twin" } });
    expect(sibling.status).toBe(409);
    expect(sibling.body.code).toBe("COST_CODE_TAKEN");
    const renamed = await api("PATCH", codesPath(org, `/${b.id}`), { token: org.adminToken, body: { code: "A" } });
    expect(renamed.status).toBe(409);
    expect(renamed.body.code).toBe("COST_CODE_TAKEN");
    // Another organization's codes are no siblings.
    await createCode(await createOrganization(), { code: "A" });
    const leaf = await createCode(org, { code: "L" });
    expect((await api("DELETE", codesPath(org, `/${leaf.id}`), { token: org.adminToken })).status).toBe(200);
    await createCode(org, { code: "L" });
  });

  it("externalId is unique per organization (409 EXTERNAL_ID_TAKEN)", async () => {
    const org = await createOrganization();
    await createCode(org, { externalId: "erp-1" });
    const res = await api("POST", codesPath(org), { token: org.adminToken, body: { code: "Z", name: "Z", externalId: "erp-1" } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("EXTERNAL_ID_TAKEN");
  });

  it("five levels and no more: a sixth is 422 COST_CODE_TOO_DEEP and writes nothing", async () => {
    const org = await createOrganization();
    const codes = await chain(org, 5);
    const before = await countCodes(org);
    const res = await api("POST", codesPath(org), { token: org.adminToken, body: { parentId: codes[4]!.id, code: "6", name: "Six" } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("COST_CODE_TOO_DEEP");
    expect(await countCodes(org)).toBe(before);
  });

  it("a parentId that is not a live code of the organization is 404 COST_CODE_NOT_FOUND", async () => {
    const org = await createOrganization();
    const foreign = await createCode(await createOrganization());
    for (const parentId of [foreign.id, "no-such-code"]) {
      const res = await api("POST", codesPath(org), { token: org.adminToken, body: { parentId, code: "P", name: "P" } });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("COST_CODE_NOT_FOUND");
    }
    expect(await countCodes(org)).toBe(0);
  });

  it("PATCH parentId moves the code with its subtree; a cycle is 422 COST_CODE_CYCLE, too deep 422 COST_CODE_TOO_DEEP", async () => {
    const org = await createOrganization();
    const [a, b, c] = await chain(org, 3);
    for (const parentId of [a!.id, c!.id]) {
      const cycle = await api("PATCH", codesPath(org, `/${a!.id}`), { token: org.adminToken, body: { parentId } });
      expect(cycle.status).toBe(422);
      expect(cycle.body.code).toBe("COST_CODE_CYCLE");
    }
    const [x, y, z] = await chain(org, 3);
    // a-b-c under z would reach level 6.
    const deep = await api("PATCH", codesPath(org, `/${a!.id}`), { token: org.adminToken, body: { parentId: z!.id } });
    expect(deep.status).toBe(422);
    expect(deep.body.code).toBe("COST_CODE_TOO_DEEP");
    // b-c under y: levels 3 and 4, so c's children may be on level 5 and no deeper.
    const moved = await api("PATCH", codesPath(org, `/${b!.id}`), { token: org.adminToken, body: { parentId: y!.id } });
    expect(moved.status).toBe(200);
    expect(moved.body.parentId).toBe(y!.id);
    const d = await createCode(org, { parentId: c!.id });
    const tooDeep = await api("POST", codesPath(org), { token: org.adminToken, body: { parentId: d.id, code: "E", name: "E" } });
    expect(tooDeep.body.code).toBe("COST_CODE_TOO_DEEP");
    // Back to the roots: b on level 1, so d's child fits on level 4.
    const root = await api("PATCH", codesPath(org, `/${b!.id}`), { token: org.adminToken, body: { parentId: null } });
    expect(root.status).toBe(200);
    expect(root.body.parentId).toBeNull();
    await createCode(org, { parentId: d.id });
    const depths = await tenantDb()
      .prepare("SELECT id, depth FROM cost_codes WHERE id IN (?, ?, ?, ?)")
      .bind(b!.id, c!.id, d.id, x!.id)
      .all<{ id: string; depth: number }>();
    expect(Object.fromEntries(depths.results.map((r) => [r.id, r.depth]))).toEqual({ [b!.id]: 1, [c!.id]: 2, [d.id]: 3, [x!.id]: 1 });
  });

  it("PATCH changes only the fields it names; active false keeps the code in the tree", async () => {
    const org = await createOrganization();
    const code = await createCode(org, { code: "K", name: "Kitchen", externalId: "k" });
    const res = await api("PATCH", codesPath(org, `/${code.id}`), { token: org.adminToken, body: { active: false } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: "K", name: "Kitchen", externalId: "k", active: false, deletedAt: null });
    expect((await api("GET", codesPath(org, `/${code.id}`), { token: org.adminToken })).status).toBe(200);
  });

  it("DELETE refuses a code with live children (409 COST_CODE_HAS_CHILDREN), then deletes leaf first", async () => {
    const org = await createOrganization();
    const [parent, child] = await chain(org, 2);
    const refused = await api("DELETE", codesPath(org, `/${parent!.id}`), { token: org.adminToken });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("COST_CODE_HAS_CHILDREN");
    expect((await api("GET", codesPath(org, `/${parent!.id}`), { token: org.adminToken })).status).toBe(200);
    expect((await api("DELETE", codesPath(org, `/${child!.id}`), { token: org.adminToken })).status).toBe(200);
    const removed = await api("DELETE", codesPath(org, `/${parent!.id}`), { token: org.adminToken });
    expect(removed.status).toBe(200);
    expect(removed.body.active).toBe(false);
    expect(removed.body.deletedAt).not.toBeNull();
    const gone = await api("GET", codesPath(org, `/${parent!.id}`), { token: org.adminToken });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("COST_CODE_NOT_FOUND");
  });

  it("a child created meanwhile under a code being deleted keeps it (the delete's guard, not its read)", async () => {
    const org = await createOrganization();
    const parent = await createCode(org);
    const now = Date.now();
    const res = await requestWithInterference(
      "DELETE",
      codesPath(org, `/${parent.id}`),
      { token: org.adminToken },
      {
        before: /^update "cost_codes"/,
        meanwhile: () =>
          tenantDb()
            .prepare(
              `INSERT INTO cost_codes (id, organization_id, parent_id, code, name, depth, active, created_at, updated_at)
               VALUES (?, ?, ?, 'M', 'Meanwhile', 2, 1, ?, ?)`,
            )
            .bind(unique("cc"), org.id, parent.id, now, now)
            .run(),
      },
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("COST_CODE_HAS_CHILDREN");
    expect((await api("GET", codesPath(org, `/${parent.id}`), { token: org.adminToken })).status).toBe(200);
  });

  it("a code created under a parent deleted meanwhile is refused by its guard and writes nothing", async () => {
    const org = await createOrganization();
    const parent = await createCode(org);
    const res = await requestWithInterference(
      "POST",
      codesPath(org),
      { token: org.adminToken, body: { parentId: parent.id, code: "Late", name: "Late" } },
      {
        before: /^insert into "cost_codes"/,
        meanwhile: () => tenantDb().prepare("UPDATE cost_codes SET deleted_at = 1, active = 0 WHERE id = ?").bind(parent.id).run(),
      },
    );
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("COST_CODE_TOO_DEEP");
    expect(await countCodes(org)).toBe(1);
  });

  it("a move racing a new code under the moved subtree cannot exceed five levels (the move's guard)", async () => {
    const org = await createOrganization();
    const [, , c] = await chain(org, 3);
    const [m, n] = await chain(org, 2);
    // Moving m (levels 1-2) under c would put n on level 5: allowed when read, too deep once n has a child.
    const res = await requestWithInterference(
      "PATCH",
      codesPath(org, `/${m!.id}`),
      { token: org.adminToken, body: { parentId: c!.id } },
      {
        before: /^update "cost_codes"/,
        meanwhile: () =>
          tenantDb()
            .prepare(
              `INSERT INTO cost_codes (id, organization_id, parent_id, code, name, depth, active, created_at, updated_at)
               VALUES (?, ?, ?, 'Deep', 'Deep', 3, 1, 1, 1)`,
            )
            .bind(unique("cc"), org.id, n!.id)
            .run(),
      },
    );
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("COST_CODE_TOO_DEEP");
    const moved = await api("GET", codesPath(org, `/${m!.id}`), { token: org.adminToken });
    expect(moved.body.parentId).toBeNull();
  });

  it("bad input is 400 VALIDATION_FAILED naming the fields, and writes nothing", async () => {
    const org = await createOrganization();
    expectInvalid(await api("POST", codesPath(org), { token: org.adminToken, body: { code: "", name: 5, active: "yes" } }), [
      "code",
      "name",
      "active",
    ]);
    expectInvalid(await api("POST", codesPath(org), { token: org.adminToken, body: { code: "x".repeat(65), name: "N", externalId: "" } }), [
      "code",
      "externalId",
    ]);
    const code = await createCode(org);
    expectInvalid(await api("PATCH", codesPath(org, `/${code.id}`), { token: org.adminToken, body: { parentId: 7 } }), ["parentId"]);
    expect(await countCodes(org)).toBe(1);
  });

  it("any staff member reads codes but only admins write; another organization's code is 404; no token 401", async () => {
    const org = await createOrganization();
    const code = await createCode(org);
    const staff = await createStaffMember(org, { accessRoleName: "Employee" });
    const token = await staffToken(org, staff.id);
    expect((await api("GET", codesPath(org), { token })).status).toBe(200);
    expect((await api("GET", codesPath(org, `/${code.id}/assignments`), { token })).status).toBe(200);
    const write = await api("POST", codesPath(org), { token, body: { code: "S", name: "S" } });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe("FORBIDDEN");
    const put = await api("PUT", codesPath(org, `/${code.id}/assignments`), { token, body: { all: true } });
    expect(put.status).toBe(403);
    const other = await createOrganization();
    for (const [method, suffix, body] of [
      ["GET", `/${code.id}`, undefined],
      ["PATCH", `/${code.id}`, { name: "Theirs" }],
      ["DELETE", `/${code.id}`, undefined],
      ["GET", `/${code.id}/assignments`, undefined],
      ["PUT", `/${code.id}/assignments`, { all: true }],
    ] as const) {
      const res = await api(method, codesPath(other, suffix), { token: other.adminToken, body });
      expect(res.status, `${method} ${suffix}`).toBe(404);
      expect(res.body.code).toBe("COST_CODE_NOT_FOUND");
    }
    expect((await api("GET", codesPath(org), {})).status).toBe(401);
    const foreign = await api("GET", codesPath(org), { token: other.adminToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("ORGANIZATION_NOT_FOUND");
  });
});

describe("cost code assignments", () => {
  it("PUT replaces the list (employeeIds, in id order) or assigns everyone (all: true); GET answers it", async () => {
    const org = await createOrganization();
    const code = await createCode(org);
    const [s1, s2, s3] = [await createStaffMember(org), await createStaffMember(org), await createStaffMember(org)];
    const path = codesPath(org, `/${code.id}/assignments`);
    expect((await api("GET", path, { token: org.adminToken })).body).toEqual({ costCodeId: code.id, all: false, employeeIds: [] });
    const put = await api("PUT", path, { token: org.adminToken, body: { employeeIds: [s2.id, s1.id] } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ costCodeId: code.id, all: false, employeeIds: [s1.id, s2.id].sort() });
    expect((await api("GET", path, { token: org.adminToken })).body).toEqual(put.body);
    const replaced = await api("PUT", path, { token: org.adminToken, body: { employeeIds: [s3.id] } });
    expect((await api("GET", path, { token: org.adminToken })).body).toEqual({ costCodeId: code.id, all: false, employeeIds: [s3.id] });
    const all = await api("PUT", path, { token: org.adminToken, body: { all: true } });
    expect(all.body).toEqual({ costCodeId: code.id, all: true, employeeIds: [] });
    expect((await api("GET", path, { token: org.adminToken })).body).toEqual(all.body);
    expect((await feed(org, "cost_code.assignments")).map(([, data]) => data)).toEqual([put.body, replaced.body, all.body]);
  });

  it("an id that is no live staff member of the organization is 404 STAFF_MEMBER_NOT_FOUND and changes nothing", async () => {
    const org = await createOrganization();
    const code = await createCode(org);
    const mine = await createStaffMember(org);
    const theirs = await createStaffMember(await createOrganization());
    const path = codesPath(org, `/${code.id}/assignments`);
    await api("PUT", path, { token: org.adminToken, body: { employeeIds: [mine.id] } });
    for (const employeeIds of [[mine.id, theirs.id], ["no-such-staff"]]) {
      const res = await api("PUT", path, { token: org.adminToken, body: { employeeIds } });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("STAFF_MEMBER_NOT_FOUND");
    }
    expect((await api("GET", path, { token: org.adminToken })).body.employeeIds).toEqual([mine.id]);
    expect(await feed(org, "cost_code.assignments")).toHaveLength(1);
  });

  it("PUT needs exactly one of employeeIds and all: true (400 naming employeeIds)", async () => {
    const org = await createOrganization();
    const code = await createCode(org);
    const path = codesPath(org, `/${code.id}/assignments`);
    expectInvalid(await api("PUT", path, { token: org.adminToken, body: {} }), ["employeeIds"]);
    expectInvalid(await api("PUT", path, { token: org.adminToken, body: { all: true, employeeIds: [] } }), ["employeeIds"]);
    expectInvalid(await api("PUT", path, { token: org.adminToken, body: { employeeIds: ["a", "a"] } }), ["employeeIds"]);
    expectInvalid(await api("PUT", path, { token: org.adminToken, body: { all: false } }), ["all"]);
    const missing = await api("PUT", codesPath(org, "/no-such-code/assignments"), { token: org.adminToken, body: { all: true } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("COST_CODE_NOT_FOUND");
  });
});

describe("cost code events", () => {
  it("created, updated, deleted carry the code as the API answers it", async () => {
    const org = await createOrganization();
    const created = await api("POST", codesPath(org), { token: org.adminToken, body: { code: "E", name: "Events" } });
    const updated = await api("PATCH", codesPath(org, `/${created.body.id}`), { token: org.adminToken, body: { name: "Renamed" } });
    const deleted = await api("DELETE", codesPath(org, `/${created.body.id}`), { token: org.adminToken });
    expect(await feed(org, "cost_code.")).toEqual([
      ["cost_code.created", created.body],
      ["cost_code.updated", updated.body],
      ["cost_code.deleted", deleted.body],
    ]);
  });

  it("a refused write records no event", async () => {
    const org = await createOrganization();
    const [parent] = await chain(org, 1);
    await createCode(org, { parentId: parent!.id });
    expect((await api("DELETE", codesPath(org, `/${parent!.id}`), { token: org.adminToken })).status).toBe(409);
    expect((await feed(org, "cost_code.")).map(([type]) => type)).toEqual(["cost_code.created", "cost_code.created"]);
  });
});
