import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createRuleSet, feed, payLines } from "../../helpers/pay";
import { createManual } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/* Issue "Working time beyond the US" item 5 and "Pay beyond the US" item 2: public holidays per location, in pay. */

const MELBOURNE = { country: "AU", state: "VIC", timezone: "Australia/Melbourne" };

const holidaysPath = (w: Workplace, tail = "") => `/api/organizations/${w.org.id}/locations/${w.location.id}/holidays${tail}`;

const holidays = async (w: Workplace, year: number) => {
  const res = await api("GET", `${holidaysPath(w)}?year=${year}`, { token: w.org.adminToken });
  expect(res.status).toBe(200);
  return res.body as { date: string; name: string; type: string }[];
};

const melbourneWorkplace = async (employmentType: string) => {
  const w = await createWorkplace(MELBOURNE);
  await createRuleSet(w.org, { preset: "AU_GENERAL_RETAIL" });
  const patched = await api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, {
    token: w.org.adminToken,
    body: { employmentType },
  });
  expect(patched.status).toBe(200);
  return w;
};

const eightHours = (w: Workplace, date: string) =>
  createManual(w, { startTime: `${date}T09:00:00Z`, endTime: `${date}T17:00:00Z`, hourlyWage: 25 });

const grossOn = async (w: Workplace, date: string) => {
  const res = await payLines(w, { startDate: date, endDate: date });
  expect(res.status).toBe(200);
  return res.body.employees[0] as { grossPay: number; lines: { kind: string; rule: string | null; minutes: number; amount: number }[] };
};

describe("GET /locations/{id}/holidays", () => {
  it("answers the dataset's holidays of the location's country and state, in date order", async () => {
    const w = await createWorkplace(MELBOURNE);
    const list = await holidays(w, 2026);
    expect(list).toContainEqual({ date: "2026-12-25", name: "Christmas Day", type: "public" });
    // Victoria's own: Melbourne Cup Day, the first Tuesday of November.
    expect(list).toContainEqual({ date: "2026-11-03", name: "Melbourne Cup", type: "public" });
    expect(list.map((h) => h.date)).toEqual([...list.map((h) => h.date)].sort());
    // New South Wales has no Melbourne Cup.
    const sydney = await createWorkplace({ country: "AU", state: "NSW", timezone: "Australia/Sydney" });
    expect((await holidays(sydney, 2026)).map((h) => h.date)).not.toContain("2026-11-03");
  });

  it("a location without a country has none; a bad year is a 400; another organization's location a 404", async () => {
    const w = await createWorkplace();
    await api("PATCH", `/api/organizations/${w.org.id}/locations/${w.location.id}`, { token: w.org.adminToken, body: { country: null } });
    expect(await holidays(w, 2026)).toEqual([]);
    const bad = await api("GET", `${holidaysPath(w)}?year=26`, { token: w.org.adminToken });
    expect(bad.status).toBe(400);
    const other = await createWorkplace(MELBOURNE);
    const foreign = await api("GET", `${holidaysPath(other)}?year=2026`, { token: w.org.adminToken });
    expect(foreign.status).toBe(404);
  });
});

describe("PUT /locations/{id}/holidays/overrides", () => {
  it("adds and removes dates, answers them, records location.holidays_updated once", async () => {
    const w = await createWorkplace(MELBOURNE);
    const body = { added: [{ date: "2026-10-22", name: "Show Day" }], removed: ["2026-11-03"] };
    const res = await api("PUT", holidaysPath(w, "/overrides"), { token: w.org.adminToken, body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ locationId: w.location.id, ...body });
    const list = await holidays(w, 2026);
    expect(list).toContainEqual({ date: "2026-10-22", name: "Show Day", type: "public" });
    expect(list.map((h) => h.date)).not.toContain("2026-11-03");
    // The same again changes nothing: no second event.
    expect((await api("PUT", holidaysPath(w, "/overrides"), { token: w.org.adminToken, body })).status).toBe(200);
    const events = (await feed(w.org)).filter((e) => e.type === "location.holidays_updated");
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ locationId: w.location.id, removed: ["2026-11-03"] });
    const read = await api("GET", holidaysPath(w, "/overrides"), { token: w.org.adminToken });
    expect(read.body).toMatchObject(body);
  });

  it("a date both added and removed, or added twice, is a 400 naming it and changes nothing", async () => {
    const w = await createWorkplace(MELBOURNE);
    const both = { added: [{ date: "2026-11-03", name: "Cup" }], removed: ["2026-11-03"] };
    const res = await api("PUT", holidaysPath(w, "/overrides"), { token: w.org.adminToken, body: both });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["removed.0"]);
    const twice = {
      added: [
        { date: "2026-10-22", name: "A" },
        { date: "2026-10-22", name: "B" },
      ],
    };
    const again = await api("PUT", holidaysPath(w, "/overrides"), { token: w.org.adminToken, body: twice });
    expect(again.status).toBe(400);
    expect((await api("GET", holidaysPath(w, "/overrides"), { token: w.org.adminToken })).body).toMatchObject({
      added: [],
      removed: [],
      updatedAt: null,
    });
  });
});

describe("public holidays in pay (AU_GENERAL_RETAIL, cl. 22.1)", () => {
  it("Christmas Day: a full-timer's 8 h at $25.00 is 225 %: $450.00; a casual's 250 %: $500.00", async () => {
    const permanent = await melbourneWorkplace("full_time");
    await eightHours(permanent, "2026-12-25");
    const paid = await grossOn(permanent, "2026-12-25");
    // 8 × 25 = 200.00 ordinary + 8 × 25 × 1.25 = 250.00 holiday = 450.00.
    expect(paid.grossPay).toBe(450);
    expect(paid.lines).toContainEqual(
      expect.objectContaining({ kind: "HOLIDAY", rule: "AU_GENERAL_RETAIL.PUBLIC_HOLIDAY", minutes: 480, amount: 250 }),
    );
    const casual = await melbourneWorkplace("casual");
    await eightHours(casual, "2026-12-25");
    // 8 × 25 × 2.5 = 500.00.
    expect((await grossOn(casual, "2026-12-25")).grossPay).toBe(500);
  });

  it("a removed holiday is an ordinary day, an added one a holiday", async () => {
    const w = await melbourneWorkplace("full_time");
    await api("PUT", holidaysPath(w, "/overrides"), {
      token: w.org.adminToken,
      body: { added: [{ date: "2026-10-22", name: "Show Day" }], removed: ["2026-11-03"] },
    });
    await eightHours(w, "2026-11-03");
    await eightHours(w, "2026-10-22");
    // Tuesday 3 November, Melbourne Cup removed: 8 × 25 = 200.00. Thursday 22 October added: 450.00.
    expect((await grossOn(w, "2026-11-03")).grossPay).toBe(200);
    expect((await grossOn(w, "2026-10-22")).grossPay).toBe(450);
  });
});
