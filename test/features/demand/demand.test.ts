import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization } from "../../helpers/fixtures";
import { createLocation } from "../../helpers/locations";
import { allPages } from "../../helpers/pages";
import { feed } from "../../helpers/pay";
import { expectInvalid } from "../../helpers/problems";
import { recordingRequest } from "../../helpers/recording-d1";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

const QUARTER = 15 * 60_000;
const START = Date.UTC(2026, 2, 14, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
const demandPath = (w: Workplace, query = "") => `/api/organizations/${w.org.id}/locations/${w.location.id}/demand${query}`;
const targetsPath = (w: Workplace) => `/api/organizations/${w.org.id}/locations/${w.location.id}/labor-targets`;
const intervals = (count: number, value = (i: number) => i * 1.5) =>
  Array.from({ length: count }, (_, i) => ({ start: iso(START + i * QUARTER), value: value(i) }));
const range = `?startTime=${iso(START)}&endTime=${iso(START + 30 * 86_400_000)}`;

const upload = (w: Workplace, body: unknown, token = w.org.adminToken) => api("PUT", demandPath(w), { token, body });

async function stored(w: Workplace, query = range) {
  const rows = await api("GET", demandPath(w, `${query}&limit=500`), { token: w.org.adminToken });
  expect(rows.status).toBe(200);
  return rows.body as { start: string; value: number; metric: string; kind: string; updatedAt: string }[];
}

describe("PUT …/demand", () => {
  it("upserts 2,000 intervals in one round trip with one demand.updated event", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const body = { metric: "SALES", kind: "FORECAST", intervals: intervals(2000) };
    const res = await recordingRequest("PUT", demandPath(w), { token: w.org.adminToken, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      upserted: 2000,
      metric: "SALES",
      kind: "FORECAST",
      locationId: w.location.id,
      startTime: iso(START),
      endTime: iso(START + 2000 * QUARTER),
    });
    // One round trip: the location's guard, every interval and the event in one batch.
    expect(res.trips).toHaveLength(1);
    const writes = res.trips;
    expect(writes[0]!.filter((s) => /insert into "demand_intervals"/i.test(s))).toHaveLength(Math.ceil(2000 / 16));
    expect(writes[0]!.filter((s) => /insert into "events"/i.test(s))).toHaveLength(1);
    const window = `?startTime=${iso(START)}&endTime=${iso(START + 92 * 86_400_000)}&limit=500`;
    const all = (await allPages(demandPath(w, window), w.org.adminToken, 500)).flat();
    expect(all).toHaveLength(2000);
    expect(all[1999]).toMatchObject({ start: iso(START + 1999 * QUARTER), value: 1999 * 1.5 });
    const events = (await feed(w.org)).filter((e) => e.type === "demand.updated");
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ upserted: 2000, metric: "SALES", kind: "FORECAST" });
  });

  it("is repeat-safe: the same PUT changes nothing but updatedAt, and a later one overwrites values", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const body = { metric: "TRANSACTIONS", kind: "ACTUAL", intervals: intervals(4) };
    expect((await upload(w, body)).status).toBe(200);
    const first = await stored(w);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await upload(w, body)).status).toBe(200);
    const second = await stored(w);
    expect(second).toHaveLength(4);
    const strip = (rows: typeof first) => rows.map(({ updatedAt: _u, ...rest }) => rest);
    expect(strip(second)).toEqual(strip(first));
    expect(second[0]!.updatedAt > first[0]!.updatedAt).toBe(true);
    expect((await upload(w, { ...body, intervals: intervals(1, () => 99) })).status).toBe(200);
    expect((await stored(w)).map((r) => r.value)).toEqual([99, 1.5, 3, 4.5]);
  });

  it("keeps metrics and kinds apart and filters by them", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    await upload(w, { metric: "SALES", kind: "ACTUAL", intervals: intervals(2) });
    await upload(w, { metric: "SALES", kind: "FORECAST", intervals: intervals(2) });
    await upload(w, { metric: "COVERS", kind: "ACTUAL", intervals: intervals(2) });
    expect(await stored(w)).toHaveLength(6);
    expect(await stored(w, `${range}&metric=SALES`)).toHaveLength(4);
    const forecast = await stored(w, `${range}&kind=FORECAST`);
    expect(forecast.map((r) => [r.metric, r.kind])).toEqual([
      ["SALES", "FORECAST"],
      ["SALES", "FORECAST"],
    ]);
  });

  it("refuses bad input with a problem naming the field, and writes nothing", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const valid = { metric: "SALES", kind: "ACTUAL", intervals: intervals(2) };
    const cases: [unknown, string[]][] = [
      [{ ...valid, intervals: [{ start: "2026-03-14T09:10:00Z", value: 1 }] }, ["intervals.0.start"]],
      [{ ...valid, intervals: [...intervals(2), { start: "2026-03-14T09:00:30Z", value: 1 }] }, ["intervals.2.start"]],
      [{ ...valid, intervals: [...intervals(3), intervals(3)[1]] }, ["intervals.3.start"]],
      [{ ...valid, intervals: [{ start: iso(START), value: -1 }] }, ["intervals.0.value"]],
      [{ ...valid, intervals: [] }, ["intervals"]],
      [{ ...valid, intervals: intervals(2001) }, ["intervals"]],
      [{ ...valid, metric: "sales" }, ["metric"]],
      [{ ...valid, kind: "PLAN" }, ["kind"]],
    ];
    for (const [body, paths] of cases) expectInvalid(await upload(w, body), paths);
    expect(await stored(w)).toEqual([]);
    expect((await feed(w.org)).filter((e) => e.type === "demand.updated")).toEqual([]);
  });

  it("answers 404 for another organization's location and 403 without SCHEDULE_WRITE", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const other = await createOrganization();
    const theirs = await createLocation(other);
    const body = { metric: "SALES", kind: "ACTUAL", intervals: intervals(1) };
    const res = await api("PUT", `/api/organizations/${w.org.id}/locations/${theirs.id}/demand`, { token: w.org.adminToken, body });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("LOCATION_NOT_FOUND");
    const read = await api("GET", `/api/organizations/${w.org.id}/locations/${theirs.id}/demand${range}`, { token: w.org.adminToken });
    expect(read.status).toBe(404);
    expect((await upload(w, body, w.token)).status).toBe(403);
    expect(await stored(w)).toEqual([]);
    const gone = await createLocation(w.org);
    const removed = await api("DELETE", `/api/organizations/${w.org.id}/locations/${gone.id}`, { token: w.org.adminToken });
    expect(removed.status).toBe(200);
    const late = await api("PUT", `/api/organizations/${w.org.id}/locations/${gone.id}/demand`, { token: w.org.adminToken, body });
    expect(late.status).toBe(404);
    expect(late.body.code).toBe("LOCATION_NOT_FOUND");
    expect((await feed(w.org)).filter((e) => e.type === "demand.updated")).toEqual([]);
  });
});

describe("GET …/demand", () => {
  it("reads [startTime, endTime) page by page, and refuses a range over 92 days or reversed", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    await upload(w, { metric: "SALES", kind: "ACTUAL", intervals: intervals(10) });
    const window = `?startTime=${iso(START + 2 * QUARTER)}&endTime=${iso(START + 5 * QUARTER)}`;
    expect((await stored(w, window)).map((r) => r.start)).toEqual([2, 3, 4].map((i) => iso(START + i * QUARTER)));
    const pages = await allPages(demandPath(w, `${range}&limit=3`), w.org.adminToken, 3);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 3, 1]);
    expect(pages.flat().map((r) => r.start)).toEqual(intervals(10).map((i) => i.start));
    const tooLong = `?startTime=${iso(START)}&endTime=${iso(START + 93 * 86_400_000)}`;
    expectInvalid(await api("GET", demandPath(w, tooLong), { token: w.org.adminToken }), ["endTime"]);
    const reversed = `?startTime=${iso(START + QUARTER)}&endTime=${iso(START)}`;
    expectInvalid(await api("GET", demandPath(w, reversed), { token: w.org.adminToken }), ["endTime"]);
    expectInvalid(await api("GET", demandPath(w, `${range}&cursor=nope`), { token: w.org.adminToken }), ["cursor"]);
  });
});

describe("labor targets", () => {
  it("are null until set, then set with labor_targets.updated", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const before = await api("GET", targetsPath(w), { token: w.org.adminToken });
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ locationId: w.location.id, laborPercent: null, salesPerLaborHour: null, updatedAt: null });
    const put = await api("PUT", targetsPath(w), { token: w.org.adminToken, body: { laborPercent: 22.5, salesPerLaborHour: 85 } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ laborPercent: 22.5, salesPerLaborHour: 85 });
    const again = await api("PUT", targetsPath(w), { token: w.org.adminToken, body: { laborPercent: 30, salesPerLaborHour: 0 } });
    expect(again.status).toBe(200);
    const read = await api("GET", targetsPath(w), { token: w.org.adminToken });
    expect(read.body).toMatchObject({ laborPercent: 30, salesPerLaborHour: 0 });
    const events = (await feed(w.org)).filter((e) => e.type === "labor_targets.updated");
    expect(events.map((e) => e.data.laborPercent)).toEqual([22.5, 30]);
  });

  it("refuses bad targets, another organization's location and a caller without SCHEDULE_WRITE", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    for (const [body, paths] of [
      [{ laborPercent: 101, salesPerLaborHour: 1 }, ["laborPercent"]],
      [{ laborPercent: 20, salesPerLaborHour: -1 }, ["salesPerLaborHour"]],
      [{ laborPercent: 20 }, ["salesPerLaborHour"]],
    ] as const) {
      expectInvalid(await api("PUT", targetsPath(w), { token: w.org.adminToken, body }), paths);
    }
    const theirs = await createLocation(await createOrganization());
    const res = await api("PUT", `/api/organizations/${w.org.id}/locations/${theirs.id}/labor-targets`, {
      token: w.org.adminToken,
      body: { laborPercent: 20, salesPerLaborHour: 1 },
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("LOCATION_NOT_FOUND");
    expect((await api("PUT", targetsPath(w), { token: w.token, body: { laborPercent: 20, salesPerLaborHour: 1 } })).status).toBe(403);
    expect((await api("GET", targetsPath(w), { token: w.org.adminToken })).body).toMatchObject({ laborPercent: null });
    expect((await feed(w.org)).filter((e) => e.type === "labor_targets.updated")).toEqual([]);
  });
});
