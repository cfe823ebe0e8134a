import { env, introspectWorkflow } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { shardBinding } from "@/data/shards";
import { parseCsv } from "@/domain/csv";
import { api } from "../../helpers/api";
import { copyId, copyRows } from "../../helpers/copy-rows";
import { closePeriod, PERIOD, periodsPath, WEEK, workDay } from "../../helpers/pay";
import { shardOf } from "../../helpers/shards";
import { createWorkplace } from "../../helpers/workplace";

const STAFF = 10_000;

describe("payroll at scale", () => {
  it("a period of 10,000 staff closes: its snapshot is an object in R2, and the payroll streams every row", async () => {
    const w = await createWorkplace();
    const shift = await workDay(w, WEEK[0], 8);
    const db = shardBinding(env, await shardOf(w.org.id));
    await copyRows(db, "staff_members", w.staff.id, STAFF - 1, { id: copyId(w.staff.id), external_id: "NULL" });
    await copyRows(db, "shifts", shift.id, STAFF - 1, { id: copyId(shift.id), employee_id: copyId(w.staff.id) });

    // 10,000 staff paid is more than one invocation closes (CLOSE_IN_REQUEST_MAX_EMPLOYEES, 5,000): a job, run to its end.
    await using workflows = await introspectWorkflow(env.PAY_CLOSE_WORKFLOW);
    await workflows.modifyAll(async (m) => {
      await m.disableRetryDelays();
    });
    const started = await closePeriod(w, PERIOD, { approveAll: true });
    expect(started.status).toBe(202);
    const [instance] = await workflows.get();
    await instance!.waitForStatus("complete");
    const job = await api("GET", `/api/organizations/${w.org.id}/jobs/${started.body.id}`, { token: w.org.adminToken });
    expect(job.body).toMatchObject({ kind: "PAY_CLOSE", status: "SUCCEEDED", progress: 1, error: null });
    const closed = await api("GET", `${periodsPath(w.org)}/${PERIOD}`, { token: w.org.adminToken });
    expect(closed.body).toMatchObject({ status: "CLOSED", version: 1, employeeCount: STAFF, approvedCount: STAFF });
    const events = await db
      .prepare("SELECT count(*) AS n FROM events WHERE organization_id = ? AND type = 'timesheet.approved'")
      .bind(w.org.id)
      .first<{ n: number }>();
    expect(events!.n).toBe(STAFF);
    const row = await db
      .prepare("SELECT object_key, object_size, snapshot FROM pay_period_snapshots WHERE organization_id = ?")
      .bind(w.org.id)
      .first<{ object_key: string; object_size: number; snapshot: string | null }>();
    expect(row!.snapshot).toBeNull();
    expect((await env.FILES.head(row!.object_key))!.size).toBe(row!.object_size);
    const csv = await api("GET", `${periodsPath(w.org)}/${PERIOD}/payroll?format=csv`, { token: w.org.adminToken });
    expect(csv.status).toBe(200);
    expect(parseCsv(csv.text)).toHaveLength(STAFF + 1);
    const json = await api("GET", `${periodsPath(w.org)}/${PERIOD}/payroll`, { token: w.org.adminToken });
    expect(json.body.employees).toHaveLength(STAFF);
    expect(json.body.totals.regularMinutes).toBe(STAFF * 8 * 60);
  });
});
