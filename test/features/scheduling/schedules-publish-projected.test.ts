import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createRole } from "../../helpers/timesheets";
import { createWorkplace } from "../../helpers/workplace";

/*
 * A publish's dry run answers what publishing costs (issue 44 item 8): premium hours priced at the regular rate schedule
 * cost projects for their workweek, marked as projected; flat amounts as they are.
 */

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const at = (date: string, time: string) => `${date}T${time}:00Z`;

describe("POST …/schedules/publish dryRun: premiumAmount projected", () => {
  it("Seattle: two added entries (4 h at $20, 8 h at $30) earn 1 h each at the week's projected rate of $26.67: $53.34", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const cook = await createRole(w, 20, "Cook");
    const server = await createRole(w, 30, "Server");
    const staffPath = `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`;
    const roles = await api("PATCH", staffPath, { token: w.org.adminToken, body: { roleIds: [cook.id, server.id] } });
    expect(roles.status, roles.text).toBe(200);
    const base = `/api/organizations/${w.org.id}/locations/${w.location.id}`;
    const pack = await api("PUT", `${base}/fair-workweek`, { token: w.org.adminToken, body: { rulePack: "SEATTLE" } });
    expect(pack.status, pack.text).toBe(200);
    const date = day(3);
    // One day, 10 h apart (outside Seattle's rest window): a 4-hour Cook draft and an 8-hour Server draft.
    for (const [roleId, startTime, endTime] of [
      [cook.id, at(date, "00:00"), at(date, "04:00")],
      [server.id, at(date, "14:00"), at(date, "22:00")],
    ]) {
      const res = await api("POST", `${base}/schedules/drafts`, {
        token: w.org.adminToken,
        body: { employeeId: w.staff.id, roleId, startTime, endTime },
      });
      expect(res.status, res.text).toBe(201);
    }
    const dry = await api("POST", `${base}/schedules/publish`, {
      token: w.org.adminToken,
      body: { startDate: date, endDate: date, dryRun: true },
    });
    expect(dry.status, dry.text).toBe(200);
    // Each addition with 3 days' notice: 1 h at the regular rate (SMC 14.22.050), no flat amount.
    expect(dry.body.changes.map((c: { premium: unknown }) => c.premium)).toEqual([
      { hours: 1, amount: null, rule: expect.stringMatching(/^SEATTLE\./) },
      { hours: 1, amount: null, rule: expect.stringMatching(/^SEATTLE\./) },
    ]);
    // The workweek's regular rate as schedule cost projects it with these drafts published:
    // (4 h × $20 + 8 h × $30) / 12 h = $320 / 12 = $26.666…; each hour rounded once: $26.67; two: $53.34.
    const totals = { changes: 2, premiumHours: 2, premiumAmount: 53.34, amountProjected: true };
    expect(dry.body.totals).toEqual(totals);
    expect(dry.body.employees).toEqual([{ employeeId: w.staff.id, ...totals }]);
    // Publishing records the hours; its event carries no money for them (pay prices them once worked).
    const published = await api("POST", `${base}/schedules/publish`, { token: w.org.adminToken, body: { startDate: date, endDate: date } });
    expect(published.status, published.text).toBe(200);
    expect(published.body.publishedEntries).toBe(2);
    const events = await api("GET", `/api/organizations/${w.org.id}/events?types=schedule.published`, { token: w.org.adminToken });
    expect(events.body.map((e: { data: Record<string, unknown> }) => e.data)).toEqual([
      expect.objectContaining({ changes: 2, premiumHours: 2, premiumAmount: 0 }),
    ]);
  });
});
