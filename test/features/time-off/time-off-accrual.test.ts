import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { runAccrualPass } from "@/jobs/accrual-pass";
import worker from "@/worker";
import { api } from "../../helpers/api";
import { unique } from "../../helpers/fixtures";
import { createLocation } from "../../helpers/locations";
import { tenantDb } from "../../helpers/shards";
import { balanceOf, createTimeOffPlace, ledgerOf, orgPath, setBalance, simulateSince, type TimeOffPlace } from "../../helpers/time-off";

const db = () => createDatabase(tenantDb());
const at = (iso: string) => new Date(iso);

const accruals = async (place: TimeOffPlace) => {
  const balance = await balanceOf(place);
  return (await ledgerOf(balance.id)).filter((e) => e.kind !== "adjustment");
};

const weekly = {
  limitSettings: {
    isFixedAmount: true,
    fixedAmount: { hours: 2, accrualCycle: "Periodic", accrualFrequency: "EveryOneWeek", accrualDay: "Monday" },
  },
};

describe("the Cron accrual pass", () => {
  it("weekly accrual: each period once, however often the pass runs, and missed weeks are caught up", async () => {
    const place = await createTimeOffPlace(weekly);
    await simulateSince(place, "2030-01-01T00:00:00Z");
    await runAccrualPass(db(), at("2030-01-14T10:00:00Z"));
    await runAccrualPass(db(), at("2030-01-14T10:30:00Z"));
    expect((await accruals(place)).map((e) => [e.effective_date, e.hours, e.source_id])).toEqual([
      ["2030-01-07", 2, "week:2030-01-07"],
      ["2030-01-14", 2, "week:2030-01-14"],
    ]);
    await runAccrualPass(db(), at("2030-02-04T00:30:00Z"));
    expect((await accruals(place)).map((e) => e.effective_date)).toEqual([
      "2030-01-07",
      "2030-01-14",
      "2030-01-21",
      "2030-01-28",
      "2030-02-04",
    ]);
    expect((await balanceOf(place)).hoursBalance).toBe(10);
  });

  it("two passes running at once still add each period once (the ledger's source index)", async () => {
    const place = await createTimeOffPlace(weekly);
    await simulateSince(place, "2030-01-01T00:00:00Z");
    await Promise.all([runAccrualPass(db(), at("2030-03-01T00:00:00Z")), runAccrualPass(db(), at("2030-03-01T00:00:00Z"))]);
    await tenantDb().prepare("UPDATE worker_policies SET accrued_through = NULL WHERE policy_id = ?").bind(place.policy.id).run();
    await runAccrualPass(db(), at("2030-03-01T00:00:00Z"));
    expect(await accruals(place)).toHaveLength(8);
  });

  it("monthly on the last day, in the organization's zone", async () => {
    const place = await createTimeOffPlace(
      {
        limitSettings: {
          isFixedAmount: true,
          fixedAmount: { daysEarned: 1, accrualCycle: "Periodic", accrualFrequency: "EveryMonth", accrualDate: "last" },
        },
        fullDayDuration: 7.5,
      },
      { timezone: "Asia/Tokyo" },
    );
    await simulateSince(place, "2032-01-15T00:00:00Z");
    await runAccrualPass(db(), at("2032-02-29T15:30:00Z"));
    expect((await accruals(place)).map((e) => [e.effective_date, e.hours])).toEqual([
      ["2032-01-31", 7.5],
      ["2032-02-29", 7.5],
    ]);
  });

  it("AllAtOnce grants on inclusion and again on 1 January; a worker included later gets their own grant", async () => {
    const place = await createTimeOffPlace({
      limitSettings: { isFixedAmount: true, fixedAmount: { hours: 80, accrualCycle: "AllAtOnce" } },
    });
    // The activation granted this year's hours at once (time-off-grants.test.ts); the pass is simulated from 2031.
    const today = new Date().toISOString().slice(0, 10);
    expect((await accruals(place)).map((e) => [e.effective_date, e.hours])).toEqual([[today, 80]]);
    await simulateSince(place, "2031-06-10T00:00:00Z");
    await runAccrualPass(db(), at("2031-06-10T12:00:00Z"));
    expect((await accruals(place)).map((e) => [e.effective_date, e.hours])).toEqual([["2031-06-10", 80]]);
    await runAccrualPass(db(), at("2032-01-01T00:30:00Z"));
    expect((await accruals(place)).map((e) => [e.effective_date, e.source_id])).toEqual([
      ["2031-06-10", "year:2031"],
      ["2032-01-01", "year:2032"],
    ]);
  });

  it("a worker the rule includes later accrues from their inclusion, not from the policy's activation", async () => {
    const place = await createTimeOffPlace({
      ...weekly,
      defaultSettings: { assignedStaff: { type: "EmploymentType", value: "FullTime" } },
    });
    await simulateSince(place, "2030-01-01T00:00:00Z");
    const scheduled = async (iso: string) => {
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ scheduledTime: at(iso), cron: "*/30 * * * *" }), env, ctx);
      await waitOnExecutionContext(ctx);
    };
    await scheduled("2030-02-01T00:00:00Z");
    await scheduled("2030-06-01T00:00:00Z");
    expect(await accruals(place)).toEqual([]);
    await tenantDb().prepare("UPDATE staff_members SET employment_type = 'FullTime' WHERE id = ?").bind(place.worker.id).run();
    await scheduled("2030-06-10T12:00:00Z");
    expect((await accruals(place)).map((e) => e.effective_date)).toEqual(["2030-06-03", "2030-06-10"]);
  });

  it("a Draft or Inactive policy accrues nothing", async () => {
    const place = await createTimeOffPlace(weekly);
    await simulateSince(place, "2030-01-01T00:00:00Z");
    await api("PATCH", orgPath(place.org, `/policies/${place.policy.id}/deactivate`), { token: place.org.adminToken });
    await runAccrualPass(db(), at("2030-02-01T00:00:00Z"));
    expect(await accruals(place)).toEqual([]);
  });

  it("at the year boundary hours above carryoverLimit expire through one carryover entry", async () => {
    const place = await createTimeOffPlace({ carryoverLimit: 5, units: "days", fullDayDuration: 8 }, { timezone: "America/New_York" });
    await simulateSince(place, "2030-03-01T00:00:00Z");
    await setBalance(place, 7);
    await tenantDb()
      .prepare("UPDATE time_off_ledger SET effective_date = '2030-06-01' WHERE worker_policy_id = ?")
      .bind((await balanceOf(place)).id)
      .run();
    await runAccrualPass(db(), at("2030-12-31T23:00:00Z"));
    expect(await accruals(place)).toEqual([]);
    await runAccrualPass(db(), at("2031-01-01T05:30:00Z"));
    await runAccrualPass(db(), at("2031-01-01T06:00:00Z"));
    expect((await accruals(place)).map((e) => [e.kind, e.hours, e.effective_date, e.source_id])).toEqual([
      ["carryover", -16, "2031-01-01", "year:2031"],
    ]);
    expect((await balanceOf(place)).hoursBalance).toBe(5);
  });

  it("perHourEarnings: closed shifts earn; an edit corrects by the difference, a delete takes it back; capped at the maximum", async () => {
    const place = await createTimeOffPlace({
      limitSettings: { perHourEarnings: { hoursEarned: 1, hoursWorked: 10, isLimitedMaximumBalance: true, maximumHoursBalance: 5 } },
    });
    await simulateSince(place, "2030-01-01T00:00:00Z");
    const location = await createLocation(place.org);
    const shift = async (id: string, start: string, minutes: number | null) =>
      tenantDb()
        .prepare(
          `INSERT INTO shifts (id, organization_id, employee_id, location_id, role_id, start_at, end_at, utc_offset, business_date,
           payable_duration, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
        )
        .bind(
          id,
          place.org.id,
          place.worker.id,
          location.id,
          place.org.defaultRoleId,
          Date.parse(start),
          minutes === null ? null : Date.parse(start) + minutes * 60_000,
          start.slice(0, 10),
          minutes ?? 0,
          Date.parse("2030-01-10T00:00:00Z"),
          Date.parse("2030-01-10T00:00:00Z"),
        )
        .run();
    const a = unique("shift");
    const open = unique("shift");
    await shift(a, "2030-01-05T09:00:00Z", 600);
    await shift(open, "2030-01-09T09:00:00Z", null);
    await runAccrualPass(db(), at("2030-01-10T01:00:00Z"));
    await runAccrualPass(db(), at("2030-01-10T01:30:00Z"));
    expect((await accruals(place)).map((e) => [e.hours, e.source_id])).toEqual([[1, `${a}#0000`]]);
    await tenantDb()
      .prepare("UPDATE shifts SET payable_duration = 300, updated_at = ? WHERE id = ?")
      .bind(Date.parse("2030-01-11T00:00:00Z"), a)
      .run();
    await runAccrualPass(db(), at("2030-01-11T01:00:00Z"));
    expect((await accruals(place)).map((e) => e.hours)).toEqual([1, -0.5]);
    await tenantDb()
      .prepare("UPDATE shifts SET deleted_at = ?, updated_at = ? WHERE id = ?")
      .bind(Date.parse("2030-01-12T00:00:00Z"), Date.parse("2030-01-12T00:00:00Z"), a)
      .run();
    await runAccrualPass(db(), at("2030-01-12T01:00:00Z"));
    expect((await balanceOf(place)).hoursBalance).toBe(0);
    const big = unique("shift");
    await shift(big, "2030-01-13T00:00:00Z", 24 * 60);
    await tenantDb().prepare("UPDATE shifts SET updated_at = ? WHERE id = ?").bind(Date.parse("2030-01-14T00:00:00Z"), big).run();
    await runAccrualPass(db(), at("2030-01-14T01:00:00Z"));
    expect((await balanceOf(place)).hoursBalance).toBe(2.4);
    const more = unique("shift");
    await shift(more, "2030-01-15T00:00:00Z", 40 * 60);
    await tenantDb().prepare("UPDATE shifts SET updated_at = ? WHERE id = ?").bind(Date.parse("2030-01-16T00:00:00Z"), more).run();
    await runAccrualPass(db(), at("2030-01-16T01:00:00Z"));
    expect((await balanceOf(place)).hoursBalance).toBe(5);
  });

  it("perHourEarnings: several shifts changed since the last pass stay under the maximum together", async () => {
    const place = await createTimeOffPlace({
      limitSettings: { perHourEarnings: { hoursEarned: 1, hoursWorked: 1, isLimitedMaximumBalance: true, maximumHoursBalance: 40 } },
    });
    await simulateSince(place, "2030-01-01T00:00:00Z");
    await setBalance(place, 38);
    const location = await createLocation(place.org);
    const changed = Date.parse("2030-01-10T00:00:00Z");
    for (const day of ["2030-01-05", "2030-01-06"]) {
      await tenantDb()
        .prepare(
          `INSERT INTO shifts (id, organization_id, employee_id, location_id, role_id, start_at, end_at, utc_offset, business_date,
           payable_duration, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, 120, ?, ?)`,
        )
        .bind(
          unique("shift"),
          place.org.id,
          place.worker.id,
          location.id,
          place.org.defaultRoleId,
          Date.parse(`${day}T09:00:00Z`),
          Date.parse(`${day}T11:00:00Z`),
          day,
          changed,
          changed,
        )
        .run();
    }
    await runAccrualPass(db(), at("2030-01-10T01:00:00Z"));
    expect((await accruals(place)).map((e) => e.hours).sort()).toEqual([0, 2]);
    expect((await balanceOf(place)).hoursBalance).toBe(40);
  });

  it("the Worker's scheduled handler runs the pass", async () => {
    const place = await createTimeOffPlace(weekly);
    const now = new Date();
    await simulateSince(place, new Date(now.getTime() - 15 * 86_400_000).toISOString());
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: "*/30 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    // Every Monday (UTC, the organization's zone) from the inclusion date to today, each once, 2 hours.
    const mondays: string[] = [];
    for (let day = 15; day >= 0; day--) {
      const date = new Date(now.getTime() - day * 86_400_000);
      if (date.getUTCDay() === 1) mondays.push(`week:${date.toISOString().slice(0, 10)}`);
    }
    expect((await accruals(place)).map((e) => [e.source_id, e.hours])).toEqual(mondays.map((key) => [key, 2]));
  });
});
