import { describe, expect, it } from "vitest";
import { addDays } from "@/domain/local-time";
import { workweekStart } from "@/domain/pay-workweek";
import { api } from "../../helpers/api";
import { createOrganization } from "../../helpers/fixtures";
import { rulesPath } from "../../helpers/pay";
import { expectInvalid } from "../../helpers/problems";
import { addWorker, createEntry, createSchedulePlace, type SchedulePlace } from "../../helpers/schedules";
import { staffToken } from "../../helpers/staff";

const DAY = 86_400_000;
/** A wall-clock time `days` from now at a UTC location, on the hour. */
const at = (days: number, hour: number) => {
  const d = new Date(Date.now() + days * DAY);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString().replace(".000Z", "Z");
};
const D = at(3, 0).slice(0, 10);

/** A UTC place under NYC fast food without its rest rule (entries close together need no consent). */
async function place(): Promise<SchedulePlace> {
  const p = await createSchedulePlace("UTC");
  const res = await api("PUT", `${p.base}/fair-workweek`, {
    token: p.org.adminToken,
    body: { rulePack: "NYC_FAST_FOOD", overrides: { rest: null } },
  });
  expect(res.status, res.text).toBe(200);
  return p;
}

const reportPath = (p: SchedulePlace, query = "") =>
  `/api/organizations/${p.org.id}/fair-workweek/report?startDate=${D}&endDate=${D}${query}`;

const estimate = async (p: SchedulePlace, staffId: string, weeklyHoursMin: number, weeklyHoursMax: number) => {
  const res = await api("PUT", `/api/organizations/${p.org.id}/staffmembers/${staffId}/good-faith-estimate`, {
    token: p.org.adminToken,
    body: { weeklyHoursMin, weeklyHoursMax, effectiveFrom: "2020-01-01" },
  });
  expect(res.status, res.text).toBe(200);
};

const rowOf = (body: { employeeId: string; weeks: Record<string, unknown>[] }[], id: string) => body.find((r) => r.employeeId === id);

describe("GET /organizations/{org}/fair-workweek/report", () => {
  it("per worker and workweek: published hours vs the estimate, the outside flag, changes and premiums summed", async () => {
    const p = await place();
    const over = await addWorker(p);
    const none = await addWorker(p);
    await estimate(p, p.staff.id, 10, 20);
    await estimate(p, over.id, 0, 4);
    // Two published entries added with 3 days' notice: ADDED, $15 each (NYC); a draft counts for nothing.
    await createEntry(p, { startTime: at(3, 6), endTime: at(3, 14) });
    await createEntry(p, { startTime: at(3, 15), endTime: at(3, 19) });
    await createEntry(p, { startTime: at(3, 20), endTime: at(3, 23) }, true);
    await createEntry(p, { employeeId: over.id, startTime: at(3, 9), endTime: at(3, 17) });
    const res = await api("GET", reportPath(p), { token: p.org.adminToken });
    expect(res.status, res.text).toBe(200);
    const weekStart = workweekStart(D, "Monday");
    expect(rowOf(res.body, p.staff.id)).toEqual({
      employeeId: p.staff.id,
      weeks: [
        {
          weekStart,
          weekEnd: addDays(weekStart, 6),
          scheduledHours: 12,
          estimate: { weeklyHoursMin: 10, weeklyHoursMax: 20, effectiveFrom: "2020-01-01" },
          outsideEstimate: false,
          changes: 2,
          premiumHours: 0,
          premiumAmount: 30,
          // Nothing worked: no REST premium; the two changes' $15 PREDICTABILITY pay lines.
          restPremiumHours: 0,
          restPremiumAmount: 0,
          premiumsOwed: { predictability: 30, rest: 0, total: 30 },
        },
      ],
    });
    expect(rowOf(res.body, over.id)?.weeks[0]).toMatchObject({ scheduledHours: 8, outsideEstimate: true, changes: 1, premiumAmount: 15 });
    expect(rowOf(res.body, none.id)?.weeks[0]).toMatchObject({ scheduledHours: 0, estimate: null, outsideEstimate: null, changes: 0 });
  });

  it("uses the organization's pay workweek, and pages by worker with Link", async () => {
    const p = await place();
    await addWorker(p);
    const set = await api("POST", rulesPath(p.org), {
      token: p.org.adminToken,
      body: { name: "Sunday weeks", effectiveFrom: "2020-01-01", workweekStartsOn: "Sunday" },
    });
    expect(set.status, set.text).toBe(201);
    const first = await api("GET", reportPath(p, "&limit=1"), { token: p.org.adminToken });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(1);
    expect(first.body[0].weeks.map((w: { weekStart: string }) => w.weekStart)).toEqual([workweekStart(D, "Sunday")]);
    const link = first.headers.get("Link");
    expect(link).toMatch(/rel="next"/);
    const next = await api("GET", link!.slice(1, link!.indexOf(">")), { token: p.org.adminToken });
    expect(next.status).toBe(200);
    expect(next.body.length).toBeGreaterThan(0);
    expect(next.body.map((r: { employeeId: string }) => r.employeeId)).not.toContain(first.body[0].employeeId);
  });

  it("a staff member without SCHEDULE_READ sees only themself; naming a colleague answers nothing", async () => {
    const p = await place();
    const colleague = await addWorker(p);
    await createEntry(p, { employeeId: colleague.id, startTime: at(3, 9), endTime: at(3, 17) });
    const own = await api("GET", reportPath(p), { token: p.token });
    expect(own.status).toBe(200);
    expect(own.body.map((r: { employeeId: string }) => r.employeeId)).toEqual([p.staff.id]);
    const theirs = await api("GET", reportPath(p, `&employeeId=${colleague.id}`), { token: p.token });
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual([]);
    const asColleague = await api("GET", reportPath(p), { token: await staffToken(p.org, colleague.id) });
    expect(asColleague.body).toEqual([expect.objectContaining({ employeeId: colleague.id })]);
    expect(asColleague.body[0].weeks[0]).toMatchObject({ scheduledHours: 8, changes: 1, premiumAmount: 15 });
  });

  it("filters by location and by employee", async () => {
    const p = await place();
    const other = await addWorker(p);
    await createEntry(p, { startTime: at(3, 9), endTime: at(3, 17) });
    const byEmployee = await api("GET", reportPath(p, `&employeeId=${other.id}`), { token: p.org.adminToken });
    expect(byEmployee.body.map((r: { employeeId: string }) => r.employeeId)).toEqual([other.id]);
    const elsewhere = await createSchedulePlace("UTC");
    const foreign = await api("GET", reportPath(p, `&locationId=${elsewhere.location.id}`), { token: p.org.adminToken });
    expect(foreign.body).toEqual([]);
    const here = await api("GET", reportPath(p, `&locationId=${p.location.id}`), { token: p.org.adminToken });
    expect(rowOf(here.body, p.staff.id)?.weeks[0]).toMatchObject({ scheduledHours: 8 });
  });

  it("400 for a bad date, a reversed range or one over 92 days; 404 for another organization's token", async () => {
    const p = await place();
    const path = `/api/organizations/${p.org.id}/fair-workweek/report`;
    expectInvalid(await api("GET", `${path}?startDate=2026-02-30&endDate=2026-03-01`, { token: p.org.adminToken }), ["startDate"]);
    expectInvalid(await api("GET", `${path}?startDate=2026-06-10&endDate=2026-06-01`, { token: p.org.adminToken }), ["endDate"]);
    expectInvalid(await api("GET", `${path}?startDate=2026-01-01&endDate=2026-04-03`, { token: p.org.adminToken }), ["endDate"]);
    expect((await api("GET", `${path}?startDate=2026-01-01&endDate=2026-04-02`, { token: p.org.adminToken })).status).toBe(200);
    const stranger = await createOrganization();
    const res = await api("GET", reportPath(p), { token: stranger.adminToken });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("ORGANIZATION_NOT_FOUND");
    expect((await api("GET", reportPath(p))).status).toBe(401);
  });
});
