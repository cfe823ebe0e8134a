import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ExportMessage } from "@/features/exports/export-chunk";
import worker from "@/worker";
import { api } from "../../helpers/api";
import { unique } from "../../helpers/fixtures";
import { tenantDb } from "../../helpers/shards";
import { accessToken } from "../../helpers/tokens";
import { createWorkplace, HERE } from "../../helpers/workplace";

/**
 * Writes stamp records at the organization's clock (data/clock organizationNow): a sandbox advanced 10 days stamps
 * a manual timesheet, an approval and an export at its time, and its export retries run by its clock; a live
 * organization stays on the real time.
 */
const DAY = 86_400_000;
const near = (iso: string, ms: number) => expect(Math.abs(Date.parse(iso) - ms)).toBeLessThan(60_000);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The Monday on or before the instant's UTC date: a pay period's id under the default weekly settings. */
const mondayOf = (ms: number) => day(ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY);

/** Messages the exports queue was given; `send` fails, so an export created stays QUEUED until a retry. */
function recordingQueue() {
  const sent: ExportMessage[] = [];
  return {
    sent,
    queue: {
      send: async () => {
        throw new Error("injected queue failure");
      },
      sendBatch: async (messages: { body: ExportMessage }[]) => {
        sent.push(...messages.map((m) => m.body));
      },
    },
  };
}

/** A request through the Worker's fetch with EXPORT_QUEUE as given. */
async function call(method: string, path: string, token: string, body: unknown, queue: unknown) {
  const request = new Request(`http://shiftline.test${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as never, { ...env, EXPORT_QUEUE: queue } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe("a sandbox's writes at its clock", () => {
  it("a manual timesheet, an approval and an export are stamped at the sandbox's time; a stalled export is retried by its clock", async () => {
    const created = await api("POST", "/api/organizations/sandbox", {
      token: await accessToken(),
      body: { name: unique("Sandbox"), timezone: "UTC", seed: true },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const token = await accessToken({ organizationId: id });
    const path = (rest: string) => `/api/organizations/${id}${rest}`;
    const clock = await api("GET", path("/test-clock"), { token });
    const to = Date.parse(clock.body.now) + 10 * DAY;
    const { queue, sent } = recordingQueue();
    const advanced = await call("POST", path("/test-clock/advance"), token, { to: new Date(to).toISOString() }, queue);
    expect(advanced.status).toBe(200);

    const [ada] = created.body.seeded.staffMemberIds as string[];
    const { locationId } = created.body.seeded;
    const roleId = created.body.defaults.roles[0].id;
    const yesterday = day(to - DAY);
    const manual = await api("POST", "/api/timesheets", {
      token,
      body: { employeeId: ada, locationId, roleId, startTime: `${yesterday}T09:00:00Z`, endTime: `${yesterday}T17:00:00Z` },
    });
    expect(manual.status, manual.text).toBe(201);
    near(manual.body.createdAt, to);
    near(manual.body.updatedAt, to);

    // The week of the sandbox's yesterday (weekly from Monday by default).
    const monday = mondayOf(to - DAY);
    const approved = await api("POST", path(`/pay-periods/${monday}/approvals`), { token, body: { employeeIds: [ada] } });
    expect(approved.status, approved.text).toBe(200);
    near(approved.body.employees.find((e: any) => e.employeeId === ada).approvedAt, to);

    const asked = { kind: "TIMESHEETS", format: "csv", startDate: monday, endDate: day(to) };
    const exported = await call("POST", path("/exports"), token, asked, queue);
    expect(exported.status).toBe(202);
    near(exported.body.createdAt, to);
    // Its message was never sent: 4 minutes on by the sandbox's clock it has not stalled yet, 6 minutes on it has.
    const at4 = await call("POST", path("/test-clock/advance"), token, { to: new Date(to + 4 * 60_000).toISOString() }, queue);
    expect(at4.body.ran.exportsResent).toBe(0);
    const at6 = await call("POST", path("/test-clock/advance"), token, { to: new Date(to + 6 * 60_000).toISOString() }, queue);
    expect(at6.body.ran.exportsResent).toBe(1);
    expect(sent).toEqual([{ exportId: exported.body.id, organizationId: id }]);
    const after = await tenantDb()
      .prepare("SELECT updated_at FROM exports WHERE id = ?")
      .bind(exported.body.id)
      .first<{ updated_at: number }>();
    // The retry claimed it at the sandbox's time: its next retry is 5 minutes after that, by the same clock.
    expect(Math.abs(after!.updated_at - (to + 6 * 60_000))).toBeLessThan(60_000);
  });

  it("a live organization's manual timesheet and approval stay on the real time", async () => {
    const w = await createWorkplace();
    const yesterday = day(Date.now() - DAY);
    const manual = await api("POST", "/api/timesheets", {
      token: w.org.adminToken,
      body: {
        employeeId: w.staff.id,
        locationId: w.location.id,
        roleId: w.roleId,
        startTime: `${yesterday}T09:00:00Z`,
        endTime: `${yesterday}T17:00:00Z`,
      },
    });
    expect(manual.status, manual.text).toBe(201);
    near(manual.body.createdAt, Date.now());
    const periodId = mondayOf(Date.now() - DAY);
    const approved = await api("POST", `/api/organizations/${w.org.id}/pay-periods/${periodId}/approvals`, {
      token: w.org.adminToken,
      body: { employeeIds: [w.staff.id] },
    });
    expect(approved.status, approved.text).toBe(200);
    near(approved.body.employees.find((e: any) => e.employeeId === w.staff.id).approvedAt, Date.now());
  });
});

describe("audit entries with no person behind them", () => {
  it("an automatic clock-out's shift update is audited as SYSTEM attendance-pass, with the shift before and after", async () => {
    const created = await api("POST", "/api/organizations/sandbox", {
      token: await accessToken(),
      body: { name: unique("Sandbox"), timezone: "UTC", seed: true },
    });
    const id = created.body.id as string;
    const token = await accessToken({ organizationId: id });
    const path = (rest: string) => `/api/organizations/${id}${rest}`;
    const [ada] = created.body.seeded.staffMemberIds as string[];
    const adaToken = await accessToken({ organizationId: id, employeeId: ada });
    const punchPath = path(`/staffmembers/${ada}/locations/${created.body.seeded.locationId}`);
    const roleId = created.body.defaults.roles[0].id;
    const clocked = await api("POST", `${punchPath}/clock-in`, { token: adaToken, body: { roleId, ...HERE, accuracy: 5 } });
    expect(clocked.status, clocked.text).toBe(200);
    const now = Date.parse((await api("GET", path("/test-clock"), { token })).body.now);
    const moved = await api("POST", path("/test-clock/advance"), { token, body: { to: new Date(now + 17 * 3_600_000).toISOString() } });
    expect(moved.body.ran.autoClockOuts).toBe(1);
    const log = await api("GET", path("/audit-log?resourceType=shift"), { token });
    expect(log.status, log.text).toBe(200);
    const closed = log.body.find((e: any) => e.eventType === "shift.clocked_out");
    // Run by the advance request (its operation), written by the pass: no person closed the shift.
    expect(closed).toMatchObject({ actor: { type: "SYSTEM", id: "attendance-pass", deviceId: null } });
    expect(closed.before).toMatchObject({ endTime: null });
    expect(closed.after.endTime).not.toBeNull();
    const raised = await api("GET", path("/audit-log?resourceType=attendance_exception"), { token });
    expect(raised.body.map((e: any) => e.actor.type)).toContain("SYSTEM");
  });
});
