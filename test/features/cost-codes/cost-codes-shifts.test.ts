import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { unique } from "../../helpers/fixtures";
import { requestWithInterference } from "../../helpers/interfering-d1";
import { tenantDb } from "../../helpers/shards";
import { clockIn, createWorkplace, HERE, type Workplace } from "../../helpers/workplace";

const codesPath = (w: Workplace, suffix = "") => `/api/organizations/${w.org.id}/cost-codes${suffix}`;

/** A cost code of the workplace's organization assigned as given (the staff member alone by default). */
async function code(w: Workplace, assignment: Record<string, unknown> = { employeeIds: [w.staff.id] }, body: Record<string, unknown> = {}) {
  const created = await api("POST", codesPath(w), { token: w.org.adminToken, body: { code: unique("C"), name: "Code", ...body } });
  if (created.status !== 201) throw new Error(`cost code: ${created.status} ${created.text}`);
  const put = await api("PUT", codesPath(w, `/${created.body.id}/assignments`), { token: w.org.adminToken, body: assignment });
  if (put.status !== 200) throw new Error(`assignment: ${put.status} ${put.text}`);
  return created.body.id as string;
}

const shiftsOf = async (w: Workplace) =>
  (
    await tenantDb()
      .prepare("SELECT cost_code_id AS costCodeId FROM shifts WHERE employee_id = ?")
      .bind(w.staff.id)
      .all<{ costCodeId: string | null }>()
  ).results;

const expectNotAssigned = (res: { status: number; body: any }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.code).toBe("COST_CODE_NOT_ASSIGNED");
  expect(res.body.errors).toEqual([{ path: "costCodeId", message: expect.any(String) }]);
};

describe("clock-in with a cost code", () => {
  it("charges the shift to an assigned code: stored, answered and in the event", async () => {
    const w = await createWorkplace();
    const costCodeId = await code(w);
    const res = await clockIn(w, { costCodeId });
    expect(res.status).toBe(200);
    expect(res.body.costCodeId).toBe(costCodeId);
    expect(await shiftsOf(w)).toEqual([{ costCodeId }]);
    const events = await api("GET", `/api/organizations/${w.org.id}/events?limit=500`, { token: w.org.adminToken });
    const clockedIn = events.body.find((e: { type: string }) => e.type === "shift.clocked_in");
    expect(clockedIn.data.costCodeId).toBe(costCodeId);
  });

  it("a code assigned to everyone may be charged; without costCodeId the shift has none", async () => {
    const w = await createWorkplace();
    const costCodeId = await code(w, { all: true });
    expect((await clockIn(w, { costCodeId })).body.costCodeId).toBe(costCodeId);
    const other = await createWorkplace();
    const none = await clockIn(other);
    expect(none.status).toBe(200);
    expect(none.body.costCodeId).toBeNull();
  });

  it("a code not assigned to the worker, or inactive, is 422 COST_CODE_NOT_ASSIGNED; no shift", async () => {
    const w = await createWorkplace();
    const notTheirs = await code(w, { employeeIds: [] });
    const inactive = await code(w, { employeeIds: [w.staff.id] }, { active: false });
    for (const costCodeId of [notTheirs, inactive]) expectNotAssigned(await clockIn(w, { costCodeId }));
    expect(await shiftsOf(w)).toEqual([]);
  });

  it("a code that is no live code of the organization (deleted, another's, none) is 404 COST_CODE_NOT_FOUND; no shift", async () => {
    const w = await createWorkplace();
    const elsewhere = await createWorkplace();
    const deleted = await code(w);
    expect((await api("DELETE", codesPath(w, `/${deleted}`), { token: w.org.adminToken })).status).toBe(200);
    const foreign = await code(elsewhere, { all: true });
    for (const costCodeId of [deleted, foreign, "no-such-code"]) {
      const res = await clockIn(w, { costCodeId });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("COST_CODE_NOT_FOUND");
      expect(res.body.errors).toEqual([{ path: "costCodeId", message: expect.any(String) }]);
    }
    expect(await shiftsOf(w)).toEqual([]);
  });

  it("a code deleted between the punch's read and its write refuses the clock-in (the batch's guard)", async () => {
    const w = await createWorkplace();
    const costCodeId = await code(w, { all: true });
    const res = await requestWithInterference(
      "POST",
      `${w.punchPath}/clock-in`,
      { token: w.token, body: { ...HERE, roleId: w.roleId, costCodeId } },
      {
        before: /^insert into "shifts"/,
        meanwhile: () => tenantDb().prepare("UPDATE cost_codes SET deleted_at = 1, active = 0 WHERE id = ?").bind(costCodeId).run(),
      },
    );
    expectNotAssigned(res);
    expect(await shiftsOf(w)).toEqual([]);
  });

  it("an assignment withdrawn between the punch's read and its write refuses the clock-in (the batch's guard)", async () => {
    const w = await createWorkplace();
    const costCodeId = await code(w);
    const res = await requestWithInterference(
      "POST",
      `${w.punchPath}/clock-in`,
      { token: w.token, body: { ...HERE, roleId: w.roleId, costCodeId } },
      {
        before: /^insert into "shifts"/,
        meanwhile: () => tenantDb().prepare("DELETE FROM cost_code_assignments WHERE cost_code_id = ?").bind(costCodeId).run(),
      },
    );
    expectNotAssigned(res);
    expect(await shiftsOf(w)).toEqual([]);
  });

  it("a costCodeId that is not a string is 400 naming costCodeId", async () => {
    const w = await createWorkplace();
    const res = await clockIn(w, { costCodeId: 5 });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["costCodeId"]);
  });
});

const timesheetBody = (w: Workplace, day: string, extra: Record<string, unknown> = {}) => ({
  employeeId: w.staff.id,
  locationId: w.location.id,
  roleId: w.roleId,
  startTime: `${day}T09:00:00Z`,
  endTime: `${day}T17:00:00Z`,
  ...extra,
});

const createManual = (w: Workplace, day: string, extra: Record<string, unknown> = {}) =>
  api("POST", `/api/timesheets?organizationId=${w.org.id}`, { token: w.org.adminToken, body: timesheetBody(w, day, extra) });

describe("manual shifts and edits with a cost code", () => {
  it("a manual shift takes an assigned code; an unassigned one is 422 COST_CODE_NOT_ASSIGNED and writes nothing", async () => {
    const w = await createWorkplace();
    const costCodeId = await code(w);
    const created = await createManual(w, "2026-03-02", { costCodeId });
    expect(created.status, created.text).toBe(201);
    expect(created.body.costCodeId).toBe(costCodeId);
    const notTheirs = await code(w, { employeeIds: [] });
    expectNotAssigned(await createManual(w, "2026-03-03", { costCodeId: notTheirs }));
    const foreign = await code(await createWorkplace(), { all: true });
    const unknown = await createManual(w, "2026-03-03", { costCodeId: foreign });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.map((e: { path: string }) => e.path)).toEqual(["costCodeId"]);
    expect(await shiftsOf(w)).toEqual([{ costCodeId }]);
  });

  it("PATCH sets, keeps (omitted) and removes (null) the code; an unassigned one is 422 and changes nothing", async () => {
    const w = await createWorkplace();
    const first = await code(w);
    const second = await code(w, { all: true });
    const shift = (await createManual(w, "2026-03-04")).body;
    expect(shift.costCodeId).toBeNull();
    const path = `/api/timesheets/${shift.id}?organizationId=${w.org.id}`;
    const set = await api("PATCH", path, { token: w.org.adminToken, body: { costCodeId: first } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.costCodeId).toBe(first);
    const kept = await api("PATCH", path, { token: w.org.adminToken, body: { endTime: "2026-03-04T18:00:00Z" } });
    expect(kept.body.costCodeId).toBe(first);
    const notTheirs = await code(w, { employeeIds: [] });
    expectNotAssigned(await api("PATCH", path, { token: w.org.adminToken, body: { costCodeId: notTheirs } }));
    const unknown = await api("PATCH", path, { token: w.org.adminToken, body: { costCodeId: "no-such-code" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.map((e: { path: string }) => e.path)).toEqual(["costCodeId"]);
    expect(await shiftsOf(w)).toEqual([{ costCodeId: first }]);
    const changed = await api("PATCH", path, { token: w.org.adminToken, body: { costCodeId: second } });
    expect(changed.body.costCodeId).toBe(second);
    const removed = await api("PATCH", path, { token: w.org.adminToken, body: { costCodeId: null } });
    expect(removed.status).toBe(200);
    expect(removed.body.costCodeId).toBeNull();
    expect(await shiftsOf(w)).toEqual([{ costCodeId: null }]);
  });
});

const switchTo = (w: Workplace, body: Record<string, unknown>) =>
  api("POST", `${w.punchPath}/switch`, { token: w.token, body: { ...HERE, ...body } });

const shiftRows = async (w: Workplace) =>
  (
    await tenantDb()
      .prepare(
        "SELECT id, role_id AS roleId, cost_code_id AS costCodeId, start_at AS startAt, end_at AS endAt FROM shifts WHERE employee_id = ? ORDER BY start_at, end_at IS NULL",
      )
      .bind(w.staff.id)
      .all<{ id: string; roleId: string; costCodeId: string | null; startAt: number; endAt: number | null }>()
  ).results;

describe("switch", () => {
  it("ends the open shift and opens the next at the same instant with the new code, keeping the role; both events", async () => {
    const w = await createWorkplace();
    const first = await code(w);
    const second = await code(w);
    const opened = await clockIn(w, { costCodeId: first });
    const res = await switchTo(w, { costCodeId: second });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ costCodeId: second, roleId: w.roleId, endTime: null, active: true });
    const rows = await shiftRows(w);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ id: opened.body.id, costCodeId: first });
    expect(rows[1]).toMatchObject({ id: res.body.id, costCodeId: second, roleId: w.roleId, endAt: null });
    expect(rows[0]!.endAt).toBe(rows[1]!.startAt);
    const events = (await api("GET", `/api/organizations/${w.org.id}/events?limit=500`, { token: w.org.adminToken })).body as {
      type: string;
      data: { id: string; utcEndTime: string | null; utcStartTime: string };
    }[];
    const shiftEvents = events.filter((e) => e.type.startsWith("shift.")).map((e) => [e.type, e.data.id]);
    expect(shiftEvents).toEqual([
      ["shift.clocked_in", opened.body.id],
      ["shift.clocked_out", opened.body.id],
      ["shift.clocked_in", res.body.id],
    ]);
    const out = events.find((e) => e.type === "shift.clocked_out")!;
    expect(out.data.utcEndTime).toBe(res.body.utcStartTime);
  });

  it("roleId switches the role too", async () => {
    const w = await createWorkplace();
    const costCodeId = await code(w, { all: true });
    const role = await api("POST", `/api/organizations/${w.org.id}/roles`, { token: w.org.adminToken, body: { name: unique("Role") } });
    await clockIn(w);
    const res = await switchTo(w, { costCodeId, roleId: role.body.id });
    expect(res.status, res.text).toBe(200);
    expect(res.body.roleId).toBe(role.body.id);
  });

  it("without an open shift is 409 NO_OPEN_SHIFT; with an open break 409 BREAK_ALREADY_OPEN; nothing changes", async () => {
    const w = await createWorkplace();
    const costCodeId = await code(w);
    const none = await switchTo(w, { costCodeId });
    expect(none.status).toBe(409);
    expect(none.body.code).toBe("NO_OPEN_SHIFT");
    expect(await shiftRows(w)).toEqual([]);
    const lunch = await api("POST", `/api/organizations/${w.org.id}/locations/${w.location.id}/breaks`, {
      token: w.org.adminToken,
      body: { name: "Lunch", durationMinutes: 30, frequencyMinutes: 360, paid: false },
    });
    await clockIn(w);
    expect((await api("POST", `${w.punchPath}/break-start`, { token: w.token, body: { ...HERE, typeId: lunch.body.id } })).status).toBe(
      200,
    );
    const before = await shiftRows(w);
    const onBreak = await switchTo(w, { costCodeId });
    expect(onBreak.status).toBe(409);
    expect(onBreak.body.code).toBe("BREAK_ALREADY_OPEN");
    expect(await shiftRows(w)).toEqual(before);
  });

  it("a code the worker may not charge is 422 COST_CODE_NOT_ASSIGNED and the open shift stays open (one batch)", async () => {
    const w = await createWorkplace();
    const notTheirs = await code(w, { employeeIds: [] });
    await clockIn(w);
    const before = await shiftRows(w);
    expectNotAssigned(await switchTo(w, { costCodeId: notTheirs }));
    expect(await shiftRows(w)).toEqual(before);
    const events = (await api("GET", `/api/organizations/${w.org.id}/events?limit=500`, { token: w.org.adminToken })).body as {
      type: string;
    }[];
    expect(events.filter((e) => e.type === "shift.clocked_out")).toEqual([]);
  });

  it("a code that is no live code of the organization is 404 COST_CODE_NOT_FOUND and the open shift stays open", async () => {
    const w = await createWorkplace();
    await clockIn(w);
    const before = await shiftRows(w);
    const res = await switchTo(w, { costCodeId: "no-such-code" });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("COST_CODE_NOT_FOUND");
    expect(await shiftRows(w)).toEqual(before);
  });

  it("costCodeId is required (400 naming it)", async () => {
    const w = await createWorkplace();
    await clockIn(w);
    const res = await switchTo(w, {});
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("VALIDATION_FAILED");
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["costCodeId"]);
  });
});
