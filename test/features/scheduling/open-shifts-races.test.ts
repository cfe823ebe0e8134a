import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { requestWithInterference } from "../../helpers/interfering-d1";
import { addWorker, createOpenShift, createSchedulePlace, openShiftBody } from "../../helpers/schedules";
import { tenantDb } from "../../helpers/shards";
import { staffToken } from "../../helpers/staff";

const count = async (sql: string, ...values: string[]) =>
  (await tenantDb()
    .prepare(sql)
    .bind(...values)
    .first<{ n: number }>())!.n;

describe("claims racing for the places of an open shift", () => {
  it("20 eligible workers claiming a 2-place shift at once: two APPROVED with entries, eighteen 409 OPEN_SHIFT_FULL", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, { staffCountRequired: 2, requireApproval: false });
    const workers = await Promise.all(Array.from({ length: 20 }, () => addWorker(p)));
    const tokens = await Promise.all(workers.map((w) => staffToken(p.org, w.id)));
    const results = await Promise.all(tokens.map((token) => api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token, body: {} })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(2);
    expect(statuses.filter((s) => s === 409)).toHaveLength(18);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === "OPEN_SHIFT_FULL")).toBe(true);
    expect(await count("SELECT COUNT(*) AS n FROM open_shift_preferences WHERE open_shift_id = ? AND status = 'APPROVED'", shift.id)).toBe(
      2,
    );
    expect(await count("SELECT COUNT(*) AS n FROM open_shift_preferences WHERE open_shift_id = ?", shift.id)).toBe(2);
    expect(await count("SELECT COUNT(*) AS n FROM schedule_entries WHERE open_shift_id = ?", shift.id)).toBe(2);
    const view = await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken });
    expect(view.body.isFullyClaimed).toBe(true);
  });

  it("one worker claiming twice at once gets one claim and one 409 ALREADY_CLAIMED", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, { staffCountRequired: 3, requireApproval: true });
    const results = await Promise.all(
      [0, 1].map(() => api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe("ALREADY_CLAIMED");
    expect(await count("SELECT COUNT(*) AS n FROM open_shift_preferences WHERE open_shift_id = ?", shift.id)).toBe(1);
  });

  it("managers assigning pending claims at once never approve more than the places", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, { staffCountRequired: 1, requireApproval: true });
    const workers = [p.staff, await addWorker(p), await addWorker(p)];
    const claims = [];
    for (const w of workers)
      claims.push(
        (await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.org.adminToken, body: { workerId: w.id } })).body.id,
      );
    const results = await Promise.all(
      claims.map((id) => api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${id}/assign`, { token: p.org.adminToken })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await count("SELECT COUNT(*) AS n FROM schedule_entries WHERE open_shift_id = ?", shift.id)).toBe(1);
  });
});

describe("an open shift naming a new role while another request creates that role", () => {
  const rolesNamed = async (organizationId: string, name: string) =>
    (
      await tenantDb()
        .prepare("SELECT id FROM roles WHERE organization_id = ? AND name = ? AND deleted_at IS NULL")
        .bind(organizationId, name)
        .all<{ id: string }>()
    ).results;
  const createRoleMeanwhile = (organizationId: string, name: string, id: string) => () =>
    tenantDb()
      .prepare("INSERT INTO roles (id, organization_id, name, active, created_at, updated_at) VALUES (?1, ?2, ?3, 1, ?4, ?4)")
      .bind(id, organizationId, name, Date.now())
      .run();

  it("POST /open-shifts uses the role created between its read and its write, and creates no second one", async () => {
    const p = await createSchedulePlace();
    const roleName = `Porter ${crypto.randomUUID()}`;
    const winner = `role-${crypto.randomUUID()}`;
    const res = await requestWithInterference(
      "POST",
      `${p.base}/open-shifts`,
      { token: p.org.adminToken, body: openShiftBody({ roleName }) },
      { before: /^insert into "?roles\b/i, meanwhile: createRoleMeanwhile(p.org.id, roleName, winner) },
    );
    expect(res.status).toBe(201);
    expect(res.body.roleId).toBe(winner);
    expect(await rolesNamed(p.org.id, roleName)).toEqual([{ id: winner }]);
  });

  it("PATCH /open-shifts/{id} uses the role created between its read and its write, and creates no second one", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p);
    const roleName = `Porter ${crypto.randomUUID()}`;
    const winner = `role-${crypto.randomUUID()}`;
    const res = await requestWithInterference(
      "PATCH",
      `${p.base}/open-shifts/${shift.id}`,
      { token: p.org.adminToken, body: { roleName } },
      { before: /^insert into "?roles\b/i, meanwhile: createRoleMeanwhile(p.org.id, roleName, winner) },
    );
    expect(res.status).toBe(200);
    expect(res.body.roleId).toBe(winner);
    expect(await rolesNamed(p.org.id, roleName)).toEqual([{ id: winner }]);
  });
});
