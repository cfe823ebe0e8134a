import { createExecutionContext, env, introspectWorkflow, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { shardBinding } from "@/data/shards";
import worker from "@/worker";
import { api } from "../../helpers/api";
import { copyId, copyRows } from "../../helpers/copy-rows";
import { approve, closePeriod, feed, PERIOD, periodsPath, WEEK, workDay } from "../../helpers/pay";
import { shardOf } from "../../helpers/shards";
import { createStaffMember } from "../../helpers/staff";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/**
 * Issue 50: a close's refusals and approvals are read and written in SQL with bounded answers, whatever the staff —
 * a refusal names at most the first 100 staff members by id and counts them all (`employeeCount`); approveAll's
 * approvals are one INSERT … SELECT, and `pay_period.closed` counts them without listing anyone.
 */

const WORKERS = 150;

/** The workplace's staff member and 149 copies, each with one 8-hour shift on the period's Monday: 150 workers. */
async function manyWorkers() {
  const w = await createWorkplace();
  const shift = await workDay(w, WEEK[0], 8);
  const db = shardBinding(env, await shardOf(w.org.id));
  await copyRows(db, "staff_members", w.staff.id, WORKERS - 1, { id: copyId(w.staff.id), external_id: "NULL" });
  await copyRows(db, "shifts", shift.id, WORKERS - 1, { id: copyId(shift.id), employee_id: copyId(w.staff.id) });
  const ids = [
    w.staff.id,
    ...Array.from({ length: WORKERS - 1 }, (_, i) => `${w.staff.id.slice(0, 24)}${String(i + 1).padStart(12, "0")}`),
  ];
  return { w, db, ids: ids.sort() };
}

/** POST …/close through the Worker's fetch as a job (every organization "large"). */
async function closeAsJob(w: Workplace, approveAll: boolean) {
  const request = new Request(`http://shiftline.test${periodsPath(w.org)}/${PERIOD}/close`, {
    method: "POST",
    headers: { Authorization: `Bearer ${w.org.adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ approveAll }),
  });
  const ctx = createExecutionContext();
  const vars = { CLOSE_IN_REQUEST_MAX_EMPLOYEES: "0", PAYROLL_PAGE_EMPLOYEES: "50" };
  const response = await worker.fetch(request as never, { ...env, ...vars } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, body: JSON.parse(await response.text()) };
}

describe("a close's bounded refusals and approvals", () => {
  it("TIMESHEETS_NOT_APPROVED and OPEN_SHIFT_IN_PERIOD name the first 100 staff members by id and count all 150", async () => {
    const { w, db, ids } = await manyWorkers();
    await approve(w, PERIOD, [ids[0]!]);
    const unapproved = ids.slice(1);
    for (const refused of [await closePeriod(w, PERIOD), await closeAsJob(w, false)]) {
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: "TIMESHEETS_NOT_APPROVED", employeeCount: 149 });
      expect(refused.body.employeeIds).toEqual(unapproved.slice(0, 100));
    }
    await db.prepare("UPDATE shifts SET end_at = NULL WHERE organization_id = ?").bind(w.org.id).run();
    for (const refused of [await closePeriod(w, PERIOD, { approveAll: true }), await closeAsJob(w, true)]) {
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: "OPEN_SHIFT_IN_PERIOD", employeeCount: 150 });
      expect(refused.body.employeeIds).toEqual(ids.slice(0, 100));
    }
    expect((await api("GET", `${periodsPath(w.org)}/${PERIOD}`, { token: w.org.adminToken })).body).toMatchObject({
      status: "OPEN",
      approvedCount: 1,
    });
  });

  it("a job's approveAll approves the 149 others in SQL; pay_period.closed counts 150 approved of 150", async () => {
    const { w, db, ids } = await manyWorkers();
    await approve(w, PERIOD, [ids[0]!]);
    await using workflows = await introspectWorkflow(env.PAY_CLOSE_WORKFLOW);
    await workflows.modifyAll(async (m) => {
      await m.disableRetryDelays();
    });
    const started = await closeAsJob(w, true);
    expect(started.status).toBe(202);
    const [instance] = await workflows.get();
    await instance!.waitForStatus("complete");
    const job = await api("GET", `/api/organizations/${w.org.id}/jobs/${started.body.id}`, { token: w.org.adminToken });
    expect(job.body).toMatchObject({ status: "SUCCEEDED", error: null });
    const period = await api("GET", `${periodsPath(w.org)}/${PERIOD}`, { token: w.org.adminToken });
    expect(period.body).toMatchObject({ status: "CLOSED", version: 1, approvedCount: 150, employeeCount: 150 });
    const approvals = await db
      .prepare("SELECT count(*) AS n FROM timesheet_approvals WHERE organization_id = ? AND period_start_date = ?")
      .bind(w.org.id, PERIOD)
      .first<{ n: number }>();
    expect(approvals!.n).toBe(150);
    const events = await feed(w.org);
    expect(events.filter((e) => e.type === "timesheet.approved")).toHaveLength(150);
    const closed = events.filter((e) => e.type === "pay_period.closed");
    expect(closed).toHaveLength(1);
    expect(closed[0]!.data).toMatchObject({ status: "CLOSED", version: 1, approvedCount: 150, employeeCount: 150 });
  });

  it("within the request, the answer and pay_period.closed count the same: 3 workers, 1 approved before", async () => {
    const w = await createWorkplace();
    const others = [];
    for (let i = 0; i < 2; i++) others.push(await createStaffMember(w.org, { locationIds: [w.location.id] }));
    for (const staff of [w.staff, ...others]) await workDay({ ...w, staff }, WEEK[1]!, 8);
    await approve(w, PERIOD, [others[0]!.id]);
    const closed = await closePeriod(w, PERIOD, { approveAll: true });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: "CLOSED", approvedCount: 3, employeeCount: 3 });
    expect(closed.body.employees.map((e: { approved: boolean }) => e.approved)).toEqual([true, true, true]);
    const events = await feed(w.org);
    expect(events.filter((e) => e.type === "timesheet.approved")).toHaveLength(3);
    const { employees: _, ...summary } = closed.body;
    expect(events.find((e) => e.type === "pay_period.closed")!.data).toEqual(summary);
  });
});
