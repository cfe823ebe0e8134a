import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createSchedulePlace } from "../../helpers/schedules";

/* Issue 47: the packs as data, and a location's choice of one. */

describe("working-time packs and a location's setting", () => {
  it("lists every pack, each figure with its source", async () => {
    const p = await createSchedulePlace("UTC");
    const res = await api("GET", "/api/working-time/rule-packs?date=2026-06-01", { token: p.org.adminToken });
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((pack: { id: string }) => pack.id)).toEqual([
      "EU",
      "UK",
      "DE",
      "FR",
      "ES",
      "ON",
      "NZ",
      "JP",
      "AU_RETAIL",
      "US_MINORS",
    ]);
    const de = res.body.find((pack: { id: string }) => pack.id === "DE");
    expect(de.restBetweenShifts).toEqual({ value: 11, source: "ArbZG §5(1)", agreementMayChange: true });
    expect(de.breaks.tiers).toEqual([
      { overHours: 6, minutes: 30 },
      { overHours: 9, minutes: 45 },
    ]);
    expect(de.retentionYears).toEqual({ value: 2, source: "ArbZG §16(2)", agreementMayChange: false });
  });

  it("PUT picks a pack (with an event), GET answers it; an override of a figure no agreement may change is a 400", async () => {
    const p = await createSchedulePlace("UTC");
    const path = `/api/organizations/${p.org.id}/locations/${p.location.id}/working-time`;
    expect((await api("GET", path, { token: p.org.adminToken })).body).toMatchObject({ rulePack: null, effective: null, schoolTerms: [] });
    const refused = await api("PUT", path, { token: p.org.adminToken, body: { rulePack: "UK", overrides: { restBetweenShiftsHours: 9 } } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { path: "overrides.restBetweenShiftsHours", message: "the pack's figure is not one an agreement may change" },
    ]);
    const put = await api("PUT", path, { token: p.org.adminToken, body: { rulePack: "FR", overrides: { dailyMaximumHours: 12 } } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.effective.dailyMaximum).toMatchObject({ value: 12 }); // L3121-18: an agreement may raise it to 12
    const events = (await api("GET", `/api/organizations/${p.org.id}/events?limit=500`, { token: p.org.adminToken })).body as {
      type: string;
      data: any;
    }[];
    expect(events.filter((e) => e.type === "location.working_time_updated").map((e) => e.data.rulePack)).toEqual(["FR"]);
    // The same setting again changes nothing and records nothing.
    await api("PUT", path, { token: p.org.adminToken, body: { rulePack: "FR", overrides: { dailyMaximumHours: 12 } } });
    const again = (await api("GET", `/api/organizations/${p.org.id}/events?limit=500`, { token: p.org.adminToken })).body as {
      type: string;
    }[];
    expect(again.filter((e) => e.type === "location.working_time_updated")).toHaveLength(1);
  });

  it("school terms: an end before its start is a 400", async () => {
    const p = await createSchedulePlace("UTC");
    const res = await api("PUT", `/api/organizations/${p.org.id}/locations/${p.location.id}/school-terms`, {
      token: p.org.adminToken,
      body: [{ startDate: "2026-09-01", endDate: "2026-08-01" }],
    });
    expect(res.status).toBe(400);
  });
});
