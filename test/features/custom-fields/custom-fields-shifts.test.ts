import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newId } from "@/data/ids";
import { parseCsv } from "@/domain/csv";
import type { ExportMessage } from "@/features/exports/export-chunk";
import worker from "@/worker";
import { api } from "../../helpers/api";
import { unique } from "../../helpers/fixtures";
import { requestWithInterference } from "../../helpers/interfering-d1";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { createManual, manualShift, newYork, seedShifts } from "../../helpers/timesheets";
import { clockIn, createWorkplace, HERE, punch, type Workplace } from "../../helpers/workplace";

const fieldsPath = (w: Workplace, suffix = "") => `/api/organizations/${w.org.id}/custom-fields${suffix}`;

async function field(w: Workplace, body: Record<string, unknown>): Promise<string> {
  const res = await api("POST", fieldsPath(w), { token: w.org.adminToken, body: { name: unique("F"), type: "TEXT", ...body } });
  if (res.status !== 201) throw new Error(`custom field: ${res.status} ${res.text}`);
  return res.body.id;
}

/** A workplace with a TEXT field (pattern AB-1234), a LIST field and a required TEXT field. */
async function fielded() {
  const w = await createWorkplace();
  const job = await field(w, { name: "Job", pattern: "[A-Z]{2}-\\d{4}" });
  const site = await field(w, { name: "Site", type: "LIST", options: ["Inside", "Outside"] });
  const notes = await field(w, { name: "Notes", required: true });
  return { w, job, site, notes };
}

const storedValues = async (w: Workplace) =>
  (
    await tenantDb()
      .prepare("SELECT custom_fields AS v, end_at AS endAt FROM shifts WHERE employee_id = ? ORDER BY start_at")
      .bind(w.staff.id)
      .all<{ v: string; endAt: number | null }>()
  ).results.map((r) => ({ values: JSON.parse(r.v), open: r.endAt === null }));

const setInactive = (id: string) =>
  tenantDb().prepare("UPDATE custom_fields SET active = 0, updated_at = updated_at + 1 WHERE id = ?").bind(id).run();

describe("custom fields at clock-in and clock-out", () => {
  it("clock-in stores the values; the shift answers them at the punch, in shift-state, the listing and the event", async () => {
    const { w, job, site } = await fielded();
    const res = await clockIn(w, { customFields: { [job]: "AB-1234", [site]: "Inside" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.customFields).toEqual({ [job]: "AB-1234", [site]: "Inside" });
    expect(await storedValues(w)).toEqual([{ values: { [job]: "AB-1234", [site]: "Inside" }, open: true }]);
    const state = await api("GET", `${w.punchPath}/shift-state`, { token: w.token });
    expect(state.body.openShift.customFields).toEqual({ [job]: "AB-1234", [site]: "Inside" });
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const listing = await api("GET", `/api/timesheets?startDate=${day(-2)}&endDate=${day(2)}&employeeId=${w.staff.id}`, {
      token: w.org.adminToken,
    });
    expect(listing.status, listing.text).toBe(200);
    expect(listing.body.shifts.map((s: { customFields: unknown }) => s.customFields)).toEqual([{ [job]: "AB-1234", [site]: "Inside" }]);
    const events = await api("GET", `/api/organizations/${w.org.id}/events?types=shift.clocked_in`, { token: w.org.adminToken });
    expect(events.body[0].data.customFields).toEqual({ [job]: "AB-1234", [site]: "Inside" });
  });

  it("a value that does not fit its field, an unknown, inactive or deleted field is 400 naming customFields.<id>; no shift", async () => {
    const { w, job, site } = await fielded();
    const inactive = await field(w, { active: false });
    const deleted = await field(w, {});
    expect((await api("DELETE", fieldsPath(w, `/${deleted}`), { token: w.org.adminToken })).status).toBe(200);
    const foreign = await field(await createWorkplace(), {});
    for (const [id, value] of [
      [job, "ab-1234"],
      [job, "AB-1234x"],
      [site, "Elsewhere"],
      [inactive, "x"],
      [deleted, "x"],
      [foreign, "x"],
      ["no-such-field", "x"],
    ]) {
      expectInvalid(await clockIn(w, { customFields: { [id!]: value } }), [`customFields.${id}`]);
    }
    expectInvalid(await clockIn(w, { customFields: { [job]: "x".repeat(501) } }), [`customFields.${job}`]);
    expectInvalid(await clockIn(w, { customFields: { [job]: 5 } }), [`customFields.${job}`]);
    expectInvalid(await clockIn(w, { customFields: ["AB-1234"] }), ["customFields"]);
    expect(await storedValues(w)).toEqual([]);
  });

  it("clock-in may leave a required field empty; clock-out without it is 400 naming it and the shift stays open", async () => {
    const { w, job, notes } = await fielded();
    expect((await clockIn(w, { customFields: { [job]: "AB-1234" } })).status).toBe(200);
    const refused = await punch(w, "clock-out");
    expectInvalid(refused, [`customFields.${notes}`]);
    expect(await storedValues(w)).toEqual([{ values: { [job]: "AB-1234" }, open: true }]);
    // A bad value is named beside the missing required one.
    expectInvalid(await punch(w, "clock-out", { customFields: { [job]: "nope" } }), [`customFields.${job}`, `customFields.${notes}`]);
    const out = await punch(w, "clock-out", { customFields: { [notes]: "Unloaded the truck" } });
    expect(out.status, out.text).toBe(200);
    expect(out.body.customFields).toEqual({ [job]: "AB-1234", [notes]: "Unloaded the truck" });
    expect(await storedValues(w)).toEqual([{ values: { [job]: "AB-1234", [notes]: "Unloaded the truck" }, open: false }]);
    const events = await api("GET", `/api/organizations/${w.org.id}/events?types=shift.clocked_out`, { token: w.org.adminToken });
    expect(events.body[0].data.customFields).toEqual(out.body.customFields);
  });

  it("a required field given at clock-in satisfies clock-out; an inactive required field is not enforced", async () => {
    const { w, notes } = await fielded();
    const off = await field(w, { required: true, active: false });
    expect((await clockIn(w, { customFields: { [notes]: "set early" } })).status).toBe(200);
    const out = await punch(w, "clock-out");
    expect(out.status, out.text).toBe(200);
    expect(out.body.customFields).toEqual({ [notes]: "set early" });
    expect(off).toBeTruthy();
  });

  it("a field deactivated between the clock-in's read and its write refuses it: 409 CUSTOM_FIELDS_CHANGED, no shift", async () => {
    const { w, site } = await fielded();
    const res = await requestWithInterference(
      "POST",
      `${w.punchPath}/clock-in`,
      { token: w.token, body: { ...HERE, roleId: w.roleId, customFields: { [site]: "Inside" } } },
      { before: /^insert into "shifts"/, meanwhile: () => setInactive(site) },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("CUSTOM_FIELDS_CHANGED");
    expect(await storedValues(w)).toEqual([]);
  });

  it("a required field created between the clock-out's read and its write refuses it: 409, the shift stays open", async () => {
    const { w, notes } = await fielded();
    expect((await clockIn(w, { customFields: { [notes]: "x" } })).status).toBe(200);
    const res = await requestWithInterference(
      "POST",
      `${w.punchPath}/clock-out`,
      { token: w.token, body: HERE },
      {
        before: /^update "shifts"/,
        meanwhile: () =>
          tenantDb()
            .prepare(
              `INSERT INTO custom_fields (id, organization_id, name, type, required, active, created_at, updated_at)
               VALUES (?, ?, 'Late', 'TEXT', 1, 1, ?, ?)`,
            )
            .bind(newId(), w.org.id, Date.now(), Date.now())
            .run(),
      },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("CUSTOM_FIELDS_CHANGED");
    expect(await storedValues(w)).toEqual([{ values: { [notes]: "x" }, open: true }]);
  });
});

describe("custom fields on manual shifts and shift edits", () => {
  const times = { startTime: "2026-03-10T09:00:00Z", endTime: "2026-03-10T17:00:00Z" };

  it("a manager sets values on a manual shift (required ones may stay empty); bad values are 400 naming them", async () => {
    const { w, job, site } = await fielded();
    expectInvalid(await manualShift(w, { ...times, customFields: { [site]: "Nowhere" } }), [`customFields.${site}`]);
    expectInvalid(await manualShift(w, { ...times, customFields: { unknown: "x" } }), ["customFields.unknown"]);
    expect(await storedValues(w)).toEqual([]);
    const shift = await createManual(w, { ...times, customFields: { [job]: "ZZ-0001" } });
    expect(shift.customFields).toEqual({ [job]: "ZZ-0001" });
    expect(await storedValues(w)).toEqual([{ values: { [job]: "ZZ-0001" }, open: false }]);
  });

  it("PATCH sets the values it names, null removes one, the others stay (inactive fields' too)", async () => {
    const { w, job, site, notes } = await fielded();
    const shift = await createManual(w, { ...times, customFields: { [job]: "ZZ-0001", [notes]: "kept" } });
    // Made inactive after the value was written: the value stays, a new one is refused.
    expect((await api("PATCH", fieldsPath(w, `/${notes}`), { token: w.org.adminToken, body: { active: false } })).status).toBe(200);
    const path = `/api/timesheets/${shift.id}`;
    const res = await api("PATCH", path, { token: w.org.adminToken, body: { customFields: { [site]: "Outside", [job]: null } } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.customFields).toEqual({ [notes]: "kept", [site]: "Outside" });
    expect(await storedValues(w)).toEqual([{ values: { [notes]: "kept", [site]: "Outside" }, open: false }]);
    expectInvalid(await api("PATCH", path, { token: w.org.adminToken, body: { customFields: { [notes]: "new" } } }), [
      `customFields.${notes}`,
    ]);
    expectInvalid(await api("PATCH", path, { token: w.org.adminToken, body: { customFields: { [job]: "AB-12" } } }), [
      `customFields.${job}`,
    ]);
    expect(await storedValues(w)).toEqual([{ values: { [notes]: "kept", [site]: "Outside" }, open: false }]);
    const events = await api("GET", `/api/organizations/${w.org.id}/events?types=shift.updated`, { token: w.org.adminToken });
    expect(events.body.map((e: { data: { customFields: unknown } }) => e.data.customFields)).toEqual([
      { [notes]: "kept", [site]: "Outside" },
    ]);
  });

  it("a field changed between an edit's read and its write refuses the edit: 409 CUSTOM_FIELDS_CHANGED", async () => {
    const { w, site } = await fielded();
    const shift = await createManual(w, times);
    const res = await requestWithInterference(
      "PATCH",
      `/api/timesheets/${shift.id}`,
      { token: w.org.adminToken, body: { customFields: { [site]: "Inside" } } },
      { before: /^update "shifts"/, meanwhile: () => setInactive(site) },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("CUSTOM_FIELDS_CHANGED");
    expect(await storedValues(w)).toEqual([{ values: {}, open: false }]);
  });
});

/** One delivery of an export's message through the Worker's queue handler. */
async function deliver(organizationId: string, exportId: string) {
  const batch = createMessageBatch<ExportMessage>("shiftline-exports", [
    { id: newId(), timestamp: new Date(), attempts: 1, body: { exportId, organizationId } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch as never, env);
  return getQueueResult(batch, ctx);
}

describe("custom fields in the timesheet CSV exports", () => {
  it("one column per active field, headed by its name, by name then id; the export job writes the same file", async () => {
    const w = await createWorkplace();
    const zeta = await field(w, { name: "Zeta" });
    const alpha = await field(w, { name: "=Alpha", type: "LIST", options: ["x", "y"] });
    const gone = await field(w, { name: "Gone" });
    const off = await field(w, { name: "Off", active: false });
    const seeds = Array.from({ length: 3 }, (_, i) => ({
      employeeId: w.staff.id,
      locationId: w.location.id,
      roleId: w.roleId,
      minutes: 300,
      ...newYork(`2026-03-1${i}T09:00:00`),
    }));
    await seedShifts(w.org.id, seeds);
    const ids = (
      await tenantDb().prepare("SELECT id FROM shifts WHERE employee_id = ? ORDER BY business_date").bind(w.staff.id).all<{ id: string }>()
    ).results.map((r) => r.id);
    const values = [{ [zeta]: "a,b", [alpha]: "x", [gone]: "g", [off]: "o" }, { [alpha]: "y" }, {}];
    for (const [i, id] of ids.entries())
      await tenantDb().prepare("UPDATE shifts SET custom_fields = ? WHERE id = ?").bind(JSON.stringify(values[i]), id).run();
    expect((await api("DELETE", fieldsPath(w, `/${gone}`), { token: w.org.adminToken })).status).toBe(200);

    const sync = await api("GET", "/api/timesheets/export?startDate=2026-03-01&endDate=2026-03-31", { token: w.org.adminToken });
    expect(sync.status).toBe(200);
    const [header, ...records] = parseCsv(sync.text);
    // "=Alpha" sorts before "Zeta" and is guarded against formulas like any user text.
    expect(header!.slice(-2)).toEqual(["'=Alpha", "Zeta"]);
    expect(header).not.toContain("Gone");
    expect(header).not.toContain("Off");
    expect(records.map((r) => [r[0], ...r.slice(-2)])).toEqual([
      [ids[0], "x", "a,b"],
      [ids[1], "y", ""],
      [ids[2], "", ""],
    ]);
    const json = await api("GET", "/api/timesheets/export?startDate=2026-03-01&endDate=2026-03-31&format=json", {
      token: w.org.adminToken,
    });
    expect(json.body.map((r: { customFields: unknown }) => r.customFields)).toEqual(values);

    const job = await api("POST", `/api/organizations/${w.org.id}/exports`, {
      token: w.org.adminToken,
      body: { kind: "TIMESHEETS", format: "csv", startDate: "2026-03-01", endDate: "2026-03-31" },
    });
    expect(job.status).toBe(202);
    for (let i = 0; i < 10; i++) {
      const state = await api("GET", `/api/organizations/${w.org.id}/exports/${job.body.id}`, { token: w.org.adminToken });
      if (state.body.status === "SUCCEEDED") break;
      await deliver(w.org.id, job.body.id);
    }
    const file = await api("GET", `/api/organizations/${w.org.id}/exports/${job.body.id}/download`, { token: w.org.adminToken });
    expect(file.status).toBe(200);
    expect(file.text).toBe(sync.text);
  });
});
