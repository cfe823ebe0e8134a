import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { closePeriod, feed, PERIOD, payLines, periodsPath, reopenPeriod, WEEK, workDay } from "../../helpers/pay";
import { setPackSince } from "../../helpers/schedules";
import { tenantDb } from "../../helpers/shards";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

// Frozen means every minute (API.md "Pay at the edges"): after a close, a schedule write on a frozen date would add,
// move or cancel Fair Workweek premiums dated in the closed period — refused (409 PAY_PERIOD_CLOSED) in its own batch.

const base = (w: Workplace) => `/api/organizations/${w.org.id}/locations/${w.location.id}`;
const entry = (w: Workplace, date: string, from = "09:00", to = "17:00") => ({
  employeeId: w.staff.id,
  roleId: w.roleId,
  startTime: `${date}T${from}:00Z`,
  endTime: `${date}T${to}:00Z`,
});
/** Today in New York, the workplace's zone. */
const localToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
const admin = (w: Workplace) => ({ token: w.org.adminToken });
const payroll = async (w: Workplace) => (await api("GET", `${periodsPath(w.org)}/${PERIOD}/payroll`, admin(w))).body;

/**
 * A Seattle-pack location whose staff member worked Monday and Tuesday of WEEK (8 h each at $20) as published the
 * same week; a draft on Friday, an open shift on Saturday; the week closed.
 */
async function closedSeattleWeek() {
  const w = await createWorkplace();
  await setPackSince(w.org, w.location.id, "SEATTLE", "2026-01-01");
  const post = async (path: string, body: Record<string, unknown>) => {
    const res = await api("POST", `${base(w)}${path}`, { ...admin(w), body });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string };
  };
  const monday = await post("/schedules", entry(w, WEEK[0]));
  const tuesday = await post("/schedules", entry(w, WEEK[1]));
  const friday = await post("/schedules/drafts", entry(w, WEEK[4]));
  const saturday = await post("/open-shifts", {
    roleName: "Barista",
    startDate: `${WEEK[5]}T09:00:00Z`,
    endDate: `${WEEK[5]}T13:00:00Z`,
    staffCountRequired: 1,
    requireApproval: false,
    publish: true,
  });
  await workDay(w, WEEK[0], 8);
  await workDay(w, WEEK[1], 8);
  expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);
  return { w, monday, tuesday, friday, saturday };
}

describe("schedule writes on frozen dates", () => {
  it("cancel, shorten, add, move out, publish, copy and claim are 409 PAY_PERIOD_CLOSED; a re-close finds no adjustment", async () => {
    const { w, monday, tuesday, friday, saturday } = await closedSeattleWeek();
    const closed = await payroll(w);
    // 16 h at $20 = $320, and the two entries published after their start (Seattle, added hours: 1 h at the regular
    // rate each, 2 × $20 = $40): $360.
    expect(closed.totals.grossPay).toBe(360);
    const eventsBefore = (await feed(w.org)).length;

    const attempts = {
      cancel: () => api("DELETE", `${base(w)}/schedules/${monday.id}`, admin(w)),
      shorten: () => api("PATCH", `${base(w)}/schedules/${tuesday.id}`, { ...admin(w), body: { endTime: `${WEEK[1]}T13:00:00Z` } }),
      add: () => api("POST", `${base(w)}/schedules`, { ...admin(w), body: entry(w, WEEK[2]) }),
      // Ends 01:00 on Monday, a frozen date, from an open Sunday before the week.
      addIntoFromBefore: () =>
        api("POST", `${base(w)}/schedules`, {
          ...admin(w),
          body: { ...entry(w, "2026-05-31", "17:00", "23:00"), endTime: `${WEEK[0]}T01:00:00Z` },
        }),
      addDraft: () => api("POST", `${base(w)}/schedules/drafts`, { ...admin(w), body: entry(w, WEEK[3]) }),
      moveOut: () =>
        api("PATCH", `${base(w)}/schedules/${tuesday.id}`, {
          ...admin(w),
          body: { startTime: "2026-06-16T09:00:00Z", endTime: "2026-06-16T17:00:00Z" },
        }),
      publish: () => api("POST", `${base(w)}/schedules/publish`, { ...admin(w), body: { startDate: WEEK[4], endDate: WEEK[4] } }),
      copy: () =>
        api("POST", `${base(w)}/schedules/bulk-copy`, {
          ...admin(w),
          body: { fromStartDate: WEEK[0], fromEndDate: WEEK[0], toStartDate: WEEK[3], asDrafts: false },
        }),
      claim: () => api("POST", `${base(w)}/open-shifts/${saturday.id}/claim`, { token: w.token, body: {} }),
    };
    for (const [name, attempt] of Object.entries(attempts)) {
      const res = await attempt();
      expect(res.status, `${name}: ${res.text}`).toBe(409);
      expect(res.body, name).toMatchObject({ code: "PAY_PERIOD_CLOSED", periodId: PERIOD });
    }
    expect((await feed(w.org)).length).toBe(eventsBefore);
    const draft = await api("GET", `${base(w)}/schedules/drafts/${friday.id}`, admin(w));
    expect(draft.body.isDraft).toBe(true);

    // The next week is open: the same writes go through there.
    expect((await api("POST", `${base(w)}/schedules`, { ...admin(w), body: entry(w, "2026-06-09") })).status).toBe(201);

    // Reopened and closed again, the period pays what it paid: no adjustments, still $360.
    expect((await reopenPeriod(w, PERIOD)).status).toBe(200);
    expect((await closePeriod(w, PERIOD)).status).toBe(200);
    const again = await payroll(w);
    expect(again).toMatchObject({ version: 2, adjustments: [] });
    expect(again.totals.grossPay).toBe(360);
  });
});

describe("a location's pack is effective-dated: past dates keep the pack they had", () => {
  it("a change from Seattle to Chicago today leaves June's rest premium at Seattle's 1.5× ($340, not $330)", async () => {
    const w = await createWorkplace();
    await setPackSince(w.org, w.location.id, "SEATTLE", "2026-01-01");
    // A closing shift Monday 14:00–22:00 and an opening one Tuesday 06:00–14:00: 8 h of rest, 2 h inside Seattle's 10.
    await workDay({ ...w }, WEEK[0], 0, { startTime: `${WEEK[0]}T14:00:00Z`, endTime: `${WEEK[0]}T22:00:00Z` });
    await workDay({ ...w }, WEEK[1], 0, { startTime: `${WEEK[1]}T06:00:00Z`, endTime: `${WEEK[1]}T14:00:00Z` });
    const june = async () => (await payLines(w, { startDate: WEEK[0], endDate: WEEK[6] })).body.totals.grossPay as number;
    // 16 h × $20 = $320, and the rest premium: 2 h × $20 × 0.5 (Seattle's 1.5×, the line carries the extra half) = $20.
    expect(await june()).toBe(340);
    const changed = await api("PUT", `${base(w)}/fair-workweek`, { ...admin(w), body: { rulePack: "CHICAGO" } });
    expect(changed.status).toBe(200);
    expect(changed.body.rulePack).toBe("CHICAGO");
    // Chicago's 1.25× would make it 2 h × $20 × 0.25 = $10 ($330): June keeps Seattle's $20.
    expect(await june()).toBe(340);
    // The change governs from the location's today: the versions say so.
    const versions = await tenantDb()
      .prepare("SELECT effective_from AS d, rule_pack AS p FROM location_fair_workweek_versions WHERE location_id = ? ORDER BY d")
      .bind(w.location.id)
      .all();
    expect(versions.results.map((r) => [r.d, r.p])).toEqual([
      ["2026-01-01", "SEATTLE"],
      [localToday(), "CHICAGO"],
    ]);
  });
});
