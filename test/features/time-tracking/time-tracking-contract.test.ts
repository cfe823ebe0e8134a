import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createLocation } from "../../helpers/locations";
import { recordingRequest } from "../../helpers/recording-d1";
import { createManual, lockDay, manualShift, timesheets } from "../../helpers/timesheets";
import { clockIn, createBreakType, createWorkplace, HERE, minutesAgo, punch } from "../../helpers/workplace";

describe("shift state", () => {
  it("reports the open shift as locked when its business date is locked", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const opened = await clockIn(w, { occurredAt: minutesAgo(10) });
    expect((await lockDay(w, opened.body.businessDate)).status).toBe(200);
    const state = await api("GET", `${w.punchPath}/shift-state`, { token: w.token });
    expect(state.status).toBe(200);
    expect(state.body.openShift).toMatchObject({ id: opened.body.id, locked: true });
  });
});

describe("punch refusals", () => {
  it("a disabled or foreign break type is 400 BREAK_TYPE_UNAVAILABLE naming typeId", async () => {
    const w = await createWorkplace();
    const disabled = await createBreakType(w, { enabled: false });
    const foreign = await createBreakType(await createWorkplace());
    await clockIn(w);
    for (const typeId of [disabled.id, foreign.id, "nope"]) {
      const res = await punch(w, "break-start", { typeId });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("BREAK_TYPE_UNAVAILABLE");
      expect(res.body.errors[0].path).toBe("typeId");
    }
  });

  it("a punch at another location than the open shift's says so (409 NO_OPEN_SHIFT)", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const other = await createLocation(w.org, { timezone: "UTC" });
    await api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, {
      token: w.org.adminToken,
      body: { locationIds: [w.location.id, other.id] },
    });
    await clockIn(w);
    const elsewhere = { ...w, punchPath: w.punchPath.replace(w.location.id, other.id) };
    const res = await punch(elsewhere, "clock-out", {});
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("NO_OPEN_SHIFT");
    expect(res.body.detail).toMatch(/another location/);
  });
});

describe("utcOffset: a number or an integer string; null is omitted; anything else is 400", () => {
  it("on clock-in", async () => {
    const asString = await createWorkplace();
    expect((await clockIn(asString, { utcOffset: "-240" })).body.utcOffset).toBe(-240);
    const asNull = await createWorkplace({ timezone: "Asia/Kathmandu" });
    expect((await clockIn(asNull, { utcOffset: null })).body.utcOffset).toBe(345);
    const w = await createWorkplace();
    for (const utcOffset of [true, "", " ", "1.5", "-240min", [60], {}, 1.5]) {
      const res = await clockIn(w, { utcOffset });
      expect(res.status, JSON.stringify(utcOffset)).toBe(400);
      expect(res.body.errors[0].path).toBe("utcOffset");
    }
  });

  it("on manual shifts, shift edits and reports", async () => {
    const w = await createWorkplace({ timezone: "Asia/Kathmandu" });
    const day = { startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T17:00:00Z" };
    expect((await manualShift(w, { ...day, utcOffset: true })).status).toBe(400);
    expect((await manualShift(w, { ...day, utcOffset: "" })).status).toBe(400);
    const created = await createManual(w, { ...day, utcOffset: null });
    expect(created.utcOffset).toBe(345);
    const patch = (body: unknown) => api("PATCH", `/api/timesheets/${created.id}`, { token: w.org.adminToken, body });
    expect((await patch({ hourlyWage: 3, utcOffset: true })).status).toBe(400);
    expect((await patch({ hourlyWage: 3, utcOffset: "60" })).body.utcOffset).toBe(60);
    const report = (utcOffset: string) =>
      api("GET", `/api/timesheets/reports?startDate=2026-03-01&endDate=2026-03-31&utcOffset=${utcOffset}`, { token: w.org.adminToken });
    expect((await report("")).status).toBe(400);
    expect((await report("true")).status).toBe(400);
    expect((await report("-300")).status).toBe(200);
    expect((await timesheets(w, { startDate: "2026-03-01", endDate: "2026-03-31" })).status).toBe(200);
  });
});

describe("OpenAPI", () => {
  it("documents 422 OUTSIDE_GEOFENCE on the four punch routes as GeofenceProblem, with its distances", async () => {
    const { body: document } = await api("GET", "/api/openapi.json");
    const base = "/api/organizations/{organization_id}/staffmembers/{id}/locations/{location_id}";
    for (const action of ["clock-in", "clock-out", "break-start", "break-end"]) {
      const response = document.paths[`${base}/${action}`].post.responses["422"];
      expect(response.content["application/problem+json"].schema.allOf[0], action).toEqual({
        $ref: "#/components/schemas/GeofenceProblem",
      });
      // A punch that opens a shift may name a cost code the worker may not charge.
      const costCode = action === "clock-in" ? ["COST_CODE_NOT_ASSIGNED"] : [];
      expect(response["x-problem-codes"], action).toEqual(["OUTSIDE_GEOFENCE", ...costCode, "IDEMPOTENCY_KEY_REUSED"]);
    }
    const schema = document.components.schemas.GeofenceProblem;
    const parts = [schema, ...(schema.allOf ?? [])].map((s: { $ref?: string }) => (s.$ref ? document.components.schemas.Problem : s));
    const properties = Object.assign({}, ...parts.map((s: { properties?: object }) => s.properties ?? {}));
    for (const name of ["code", "detail", "distanceCentimeters", "allowedCentimeters", "accuracyCentimeters"]) {
      expect(properties[name], name).toBeDefined();
    }
    expect(properties.distanceCentimeters.type).toBe("integer");
  });
});

describe("D1 use of a punch", () => {
  it("every punch is one read batch and one write batch, and every update names the organization", async () => {
    const w = await createWorkplace();
    const lunch = await createBreakType(w, { mandatory: true, frequencyMinutes: 30 });
    const steps: [string, Record<string, unknown>][] = [
      ["clock-in", { roleId: w.roleId, occurredAt: minutesAgo(120) }],
      ["break-start", { typeId: lunch.id, occurredAt: minutesAgo(60) }],
      ["break-end", { occurredAt: minutesAgo(30) }],
      ["break-start", { typeId: lunch.id, occurredAt: minutesAgo(20) }],
      ["clock-out", {}],
    ];
    for (const [action, body] of steps) {
      const res = await recordingRequest("POST", `${w.punchPath}/${action}`, { token: w.token, body: { ...HERE, ...body } });
      expect(res.status, `${action}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.trips, action).toHaveLength(2);
      const updates = res.trips[1]!.filter((sql) => /^\s*update/i.test(sql));
      if (action !== "clock-in") expect(updates.length, action).toBeGreaterThan(0);
      for (const sql of updates) expect(sql.split(/\bwhere\b/i)[1], `${action}: ${sql}`).toMatch(/"organization_id" = \?/);
    }
  });
});
