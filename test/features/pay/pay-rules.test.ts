import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization } from "../../helpers/fixtures";
import { createRuleSet, feed, rulesPath } from "../../helpers/pay";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { createWorkplace } from "../../helpers/workplace";

describe("pay rule sets", () => {
  it("a preset fills what the request leaves out; the set reads back, lists, and records its event", async () => {
    const org = await createOrganization();
    const res = await api("POST", rulesPath(org), {
      token: org.adminToken,
      body: { name: "California", effectiveFrom: "2026-01-01", preset: "CALIFORNIA", overtimeMultiplier: 1.6 },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("ETag")).toBeTruthy();
    expect(res.body).toMatchObject({
      organizationId: org.id,
      locationId: null,
      name: "California",
      effectiveFrom: "2026-01-01",
      preset: "CALIFORNIA",
      workweekStartsOn: "Monday",
      dailyOvertimeAfterMinutes: 480,
      dailyDoubleTimeAfterMinutes: 720,
      weeklyOvertimeAfterMinutes: 2400,
      seventhConsecutiveDay: true,
      overtimeMultiplier: 1.6,
      doubleTimeMultiplier: 2,
      rounding: { incrementMinutes: 0, mode: "NEAREST" },
      mealBreak: { afterMinutes: 300, minimumMinutes: 30, penaltyHours: 1 },
    });
    const got = await api("GET", `${rulesPath(org)}/${res.body.id}`, { token: org.adminToken });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    const listed = await api("GET", rulesPath(org), { token: org.adminToken });
    expect(listed.body).toEqual([res.body]);
    expect((await feed(org)).filter((e) => e.type === "pay_rule_set.created").map((e) => e.data.id)).toEqual([res.body.id]);
  });

  it("FLSA is weekly overtime only; NONE nothing; an explicit null is kept over the preset", async () => {
    const org = await createOrganization();
    const flsa = await createRuleSet(org, { preset: "FLSA" });
    expect(flsa).toMatchObject({
      dailyOvertimeAfterMinutes: null,
      weeklyOvertimeAfterMinutes: 2400,
      seventhConsecutiveDay: false,
      mealBreak: null,
    });
    const none = await createRuleSet(org, { preset: "NONE", effectiveFrom: "2026-02-01" });
    expect(none).toMatchObject({ dailyOvertimeAfterMinutes: null, weeklyOvertimeAfterMinutes: null });
    const ca = await createRuleSet(org, { preset: "CALIFORNIA", effectiveFrom: "2026-03-01", mealBreak: null });
    expect(ca.mealBreak).toBeNull();
    expect(ca.dailyOvertimeAfterMinutes).toBe(480);
  });

  it("refuses impossible dates, negative thresholds, double time below overtime and unknown presets with 400, writing nothing", async () => {
    const org = await createOrganization();
    const bad: [Record<string, unknown>, string][] = [
      [{ effectiveFrom: "2026-02-30" }, "effectiveFrom"],
      [{ dailyOvertimeAfterMinutes: -1 }, "dailyOvertimeAfterMinutes"],
      [{ dailyOvertimeAfterMinutes: 600, dailyDoubleTimeAfterMinutes: 480 }, "dailyDoubleTimeAfterMinutes"],
      [{ overtimeMultiplier: 2, doubleTimeMultiplier: 1.5 }, "doubleTimeMultiplier"],
      [{ preset: "TEXAS" }, "preset"],
      [{ rounding: { incrementMinutes: 7 } }, "rounding.incrementMinutes"],
      [{ mealBreak: { afterMinutes: 0, minimumMinutes: 30, penaltyHours: 1 } }, "mealBreak.afterMinutes"],
      [{ mealBreak: { afterMinutes: 10, minimumMinutes: 1440, penaltyHours: 1 } }, "mealBreak.afterMinutes"],
      [{ mealBreak: { afterMinutes: 120, minimumMinutes: 121, penaltyHours: 1 } }, "mealBreak.minimumMinutes"],
      [{ mealBreak: { afterMinutes: 300, minimumMinutes: 30, penaltyHours: 24 } }, "mealBreak.penaltyHours"],
    ];
    for (const [body, path] of bad) {
      const res = await api("POST", rulesPath(org), { token: org.adminToken, body: { name: "Bad", effectiveFrom: "2026-01-01", ...body } });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers.get("Content-Type")).toContain("application/problem+json");
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    expect((await api("GET", rulesPath(org), { token: org.adminToken })).body).toEqual([]);
  });

  it("two sets of one scope cannot share a date (409 PAY_RULES_VERSION_TAKEN); a location's set is its own scope", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "FLSA" });
    const again = await api("POST", rulesPath(w.org), { token: w.org.adminToken, body: { name: "Again", effectiveFrom: "2026-01-01" } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("PAY_RULES_VERSION_TAKEN");
    const local = await createRuleSet(w.org, { preset: "CALIFORNIA", locationId: w.location.id });
    expect(local.locationId).toBe(w.location.id);
    const listed = await api("GET", `${rulesPath(w.org)}?locationId=${w.location.id}`, { token: w.org.adminToken });
    expect(listed.body.map((s: { id: string }) => s.id)).toEqual([local.id]);
    const unknown = await api("POST", rulesPath(w.org), {
      token: w.org.adminToken,
      body: { name: "X", effectiveFrom: "2026-01-01", locationId: "nope" },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].path).toBe("locationId");
  });

  it("PATCH changes the named fields under If-Match; DELETE removes the set; both record events", async () => {
    const org = await createOrganization();
    const set = await createRuleSet(org, { preset: "FLSA" });
    const url = `${rulesPath(org)}/${set.id}`;
    const etag = (await api("GET", url, { token: org.adminToken })).headers.get("ETag")!;
    const stale = await api("PATCH", url, { token: org.adminToken, body: { name: "Old" }, headers: { "If-Match": '"nope"' } });
    expect(stale.status).toBe(412);
    const patched = await api("PATCH", url, {
      token: org.adminToken,
      body: { weeklyOvertimeAfterMinutes: 2280 },
      headers: { "If-Match": etag },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ preset: "FLSA", weeklyOvertimeAfterMinutes: 2280, name: set.name });
    const invalid = await api("PATCH", url, {
      token: org.adminToken,
      body: { dailyOvertimeAfterMinutes: 600, dailyDoubleTimeAfterMinutes: 60 },
    });
    expect(invalid.status).toBe(400);
    expect((await api("GET", url, { token: org.adminToken })).body.dailyOvertimeAfterMinutes).toBeNull();
    const longMeal = await api("PATCH", url, {
      token: org.adminToken,
      body: { mealBreak: { afterMinutes: 60, minimumMinutes: 90, penaltyHours: 1 } },
    });
    expect(longMeal.status).toBe(400);
    expect(longMeal.body.errors.map((e: { path: string }) => e.path)).toEqual(["mealBreak.minimumMinutes"]);
    expect((await api("GET", url, { token: org.adminToken })).body.mealBreak).toBeNull();
    const removed = await api("DELETE", url, { token: org.adminToken });
    expect(removed.status).toBe(200);
    expect((await api("GET", url, { token: org.adminToken })).status).toBe(404);
    const types = (await feed(org)).map((e) => e.type).filter((t) => t.startsWith("pay_rule_set."));
    expect(types).toEqual(["pay_rule_set.created", "pay_rule_set.updated", "pay_rule_set.deleted"]);
  });

  it("an unknown set and another organization's are 404; staff without ORGANIZATION_ADMIN cannot write (403)", async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    const set = await createRuleSet(org, { preset: "FLSA" });
    expect((await api("GET", `${rulesPath(org)}/nope`, { token: org.adminToken })).status).toBe(404);
    const foreign = await api("GET", `${rulesPath(org)}/${set.id}`, { token: other.adminToken });
    expect(foreign.status).toBe(404);
    expect((await api("GET", `${rulesPath(other)}/${set.id}`, { token: other.adminToken })).body.code).toBe("PAY_RULE_SET_NOT_FOUND");
    const employee = await createStaffMember(org, { accessRoleName: "Employee" });
    const token = await staffToken(org, employee.id);
    expect((await api("GET", rulesPath(org), { token })).status).toBe(403);
    const manager = await createStaffMember(org, { accessRoleName: "Manager" });
    const managerToken = await staffToken(org, manager.id);
    expect((await api("GET", rulesPath(org), { token: managerToken })).status).toBe(200);
    const refused = await api("POST", rulesPath(org), { token: managerToken, body: { name: "M", effectiveFrom: "2026-05-01" } });
    expect(refused.status).toBe(403);
    expect((await api("GET", rulesPath(org), { token: org.adminToken })).body).toHaveLength(1);
  });
});
