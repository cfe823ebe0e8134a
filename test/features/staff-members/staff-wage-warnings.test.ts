import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createRuleSet } from "../../helpers/pay";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/*
 * The wage-below-award warning on the staff member (GET one, by externalId, the lists): the General Retail Industry
 * Award 2020 [MA000004] cl. 17.1 minimum for Retail Employee Level 1 is $26.55 an hour from 1 July 2025; a casual's
 * $33.19 with the 25 % loading (cl. 11.2). Figures written out by hand.
 */

const SOURCE =
  "General Retail Industry Award 2020 [MA000004] cl. 17.1, Retail Employee Level 1 (FWO pay guide, 1 July 2025); casual + 25 % cl. 11.2";

const memberPath = (w: Workplace, suffix = "") => `/api/organizations/${w.org.id}/staffmembers${suffix}`;

async function retail(wage: number, body: Record<string, unknown> = {}) {
  const w = await createWorkplace({ timezone: "Australia/Melbourne" });
  await createRuleSet(w.org, { preset: "AU_GENERAL_RETAIL", effectiveFrom: "2025-01-01" });
  const patched = await api("PATCH", memberPath(w, `/${w.staff.id}`), {
    token: w.org.adminToken,
    body: { hourlyWage: wage, wageType: "hourly", employmentType: "full_time", externalId: `ext-${w.staff.id}`, ...body },
  });
  expect(patched.status).toBe(200);
  expect(patched.body.warnings).toBeUndefined();
  return w;
}

const read = async (w: Workplace) => {
  const res = await api("GET", memberPath(w, `/${w.staff.id}`), { token: w.org.adminToken });
  expect(res.status).toBe(200);
  return res.body as { warnings?: unknown[] };
};

describe("staff members' wage warnings", () => {
  it("$25.00 an hour is below $26.55: a warning on GET one, by externalId, the list and the location's list", async () => {
    const w = await retail(25);
    const warning = {
      code: "WAGE_BELOW_AWARD_MINIMUM",
      locationId: w.location.id,
      wageRateId: null,
      wage: 25,
      minimum: 26.55,
      source: SOURCE,
    };
    expect((await read(w)).warnings).toEqual([warning]);
    const byExternal = await api("GET", memberPath(w, `/external/ext-${w.staff.id}`), { token: w.org.adminToken });
    expect(byExternal.body.warnings).toEqual([warning]);
    const list = await api("GET", memberPath(w), { token: w.org.adminToken });
    expect(list.body.find((m: { id: string }) => m.id === w.staff.id).warnings).toEqual([warning]);
    const atLocation = await api("GET", `/api/organizations/${w.org.id}/locations/${w.location.id}/staffmembers`, {
      token: w.org.adminToken,
    });
    expect(atLocation.body.find((m: { id: string }) => m.id === w.staff.id).warnings).toEqual([warning]);
  });

  it("exactly $26.55: no warnings; $26.54: one", async () => {
    expect((await read(await retail(26.55))).warnings).toBeUndefined();
    expect((await read(await retail(26.54))).warnings).toMatchObject([{ wage: 26.54, minimum: 26.55 }]);
  });

  it("a casual's $26.54 with the loading is $33.18 < $33.19; a salaried member is not judged", async () => {
    expect((await read(await retail(26.54, { employmentType: "casual" }))).warnings).toMatchObject([{ wage: 33.18, minimum: 33.19 }]);
    expect((await read(await retail(10, { wageType: "salary" }))).warnings).toBeUndefined();
  });

  it("a wage rate in force below the minimum is named; a newer one at or above it replaces it", async () => {
    const w = await retail(30);
    const rate = async (hourlyRate: number, effectiveFrom: string) => {
      const res = await api("POST", `/api/organizations/${w.org.id}/wage-rates`, {
        token: w.org.adminToken,
        body: { employeeId: w.staff.id, locationId: w.location.id, hourlyRate, effectiveFrom },
      });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const low = await rate(25, "2026-01-01");
    expect((await read(w)).warnings).toEqual([
      { code: "WAGE_BELOW_AWARD_MINIMUM", locationId: w.location.id, wageRateId: low, wage: 25, minimum: 26.55, source: SOURCE },
    ]);
    await rate(26.55, "2026-02-01");
    expect((await read(w)).warnings).toBeUndefined();
  });

  it("under a preset without an award minimum (FLSA) nothing is judged", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "FLSA" });
    await api("PATCH", memberPath(w, `/${w.staff.id}`), { token: w.org.adminToken, body: { hourlyWage: 5, wageType: "hourly" } });
    expect((await read(w)).warnings).toBeUndefined();
  });
});
