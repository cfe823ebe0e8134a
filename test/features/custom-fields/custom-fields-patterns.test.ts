import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { unique } from "../../helpers/fixtures";
import { enrollDevice, setStaffPin } from "../../helpers/kiosk";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { createManual, manualShift } from "../../helpers/timesheets";
import { clockIn, createWorkplace, type Workplace } from "../../helpers/workplace";

// A hang guard, not a speed target: before patterns were RE2, `(.*a){12}` on 500 characters never answered, and a
// backtracking match blocks the whole isolate (this test's timers too), so the guard is only for slow machines.
const HANG_GUARD = { timeout: 10_000 };

const fieldsPath = (w: Workplace, suffix = "") => `/api/organizations/${w.org.id}/custom-fields${suffix}`;

const createField = (w: Workplace, pattern: string) =>
  api("POST", fieldsPath(w), { token: w.org.adminToken, body: { name: unique("F"), type: "TEXT", pattern } });

async function textField(w: Workplace, pattern: string): Promise<string> {
  const res = await createField(w, pattern);
  if (res.status !== 201) throw new Error(`custom field: ${res.status} ${res.text}`);
  return res.body.id;
}

const fieldCount = async (w: Workplace) =>
  (await tenantDb().prepare("SELECT count(*) AS n FROM custom_fields WHERE organization_id = ?").bind(w.org.id).first<{ n: number }>())!.n;

const shiftCount = async (w: Workplace) =>
  (await tenantDb().prepare("SELECT count(*) AS n FROM shifts WHERE employee_id = ?").bind(w.staff.id).first<{ n: number }>())!.n;

const A500 = "a".repeat(500);
const A499_BANG = `${"a".repeat(499)}!`;
const A499_B = `${"a".repeat(499)}b`;

describe("custom-field patterns are matched in linear time (RE2)", () => {
  it(
    "patterns that backtrack without end elsewhere answer at once with 500-character values: clock-in, kiosk, manual shift, edit",
    HANG_GUARD,
    async () => {
      const w = await createWorkplace();
      const PIN = "2468";
      await setStaffPin(w.org, w.staff.id, PIN);
      const device = await enrollDevice(w.org, w.location.id);
      const twelve = await textField(w, "(.*a){12}");
      const twenty = await textField(w, "(.*a){20}");
      const sideBySide = await textField(w, "a*a*a*a*a*a*b");
      const bad = { [twelve]: A499_BANG, [twenty]: A499_BANG, [sideBySide]: A499_BANG };
      const good = { [twelve]: A500, [twenty]: A500, [sideBySide]: A499_B };
      const named = [twelve, twenty, sideBySide].map((id) => `customFields.${id}`);
      const kioskClockIn = (customFields: Record<string, string>) =>
        api("POST", "/api/kiosk/punches", {
          token: device.token,
          body: { employeeId: w.staff.id, pin: PIN, action: "CLOCK_IN", roleId: w.roleId, customFields },
        });
      const times = { startTime: "2026-03-10T09:00:00Z", endTime: "2026-03-10T17:00:00Z" };

      // None of the three matches 499 a's then "!": each is named, nothing is written.
      expectInvalid(await clockIn(w, { customFields: bad }), named);
      expectInvalid(await kioskClockIn(bad), named);
      expectInvalid(await manualShift(w, { ...times, customFields: bad }), named);
      expect(await shiftCount(w)).toBe(0);

      // The matching values are taken, at the kiosk and on a manager's shift; an edit with the bad ones is refused.
      const kiosk = await kioskClockIn(good);
      expect(kiosk.status, kiosk.text).toBe(200);
      expect(kiosk.body.customFields).toEqual(good);
      const manual = await createManual(w, { ...times, customFields: good });
      const edit = await api("PATCH", `/api/timesheets/${manual.id}`, { token: w.org.adminToken, body: { customFields: bad } });
      expectInvalid(edit, named);
      expect(await shiftCount(w)).toBe(2);
    },
  );

  it.each([
    ["(?=(a+))*b"], // a quantified lookahead
    ["(?=a*)(a+)+b"],
    ["(?!a)b"],
    ["(?<=a+)b"], // lookbehind
    ["(a+)\\1b"], // back-reference
    ["(?<n>a)\\k<n>"],
    ["\\u00e9"], // RE2 writes a code point \x{e9}
    ["(?:.?){600}"], // compiles to 1202 instructions, over 1200
  ])(
    "POST and PATCH refuse %s (RE2 cannot compile it, or it is too large): 400 naming pattern, nothing written",
    HANG_GUARD,
    async (pattern) => {
      const w = await createWorkplace();
      expectInvalid(await createField(w, pattern), ["pattern"]);
      expect(await fieldCount(w)).toBe(0);
      const id = await textField(w, "[A-Z]{2}-\\d{4}");
      const patched = await api("PATCH", fieldsPath(w, `/${id}`), { token: w.org.adminToken, body: { pattern } });
      expectInvalid(patched, ["pattern"]);
      expect(patched.body.errors[0].message).toMatch(/RE2|too large/);
      expect((await api("GET", fieldsPath(w, `/${id}`), { token: w.org.adminToken })).body.pattern).toBe("[A-Z]{2}-\\d{4}");
    },
  );

  it("a pattern stored before patterns were RE2 that RE2 refuses refuses values (400 naming the field) until replaced", async () => {
    const w = await createWorkplace();
    const id = await textField(w, "a+");
    // An ECMAScript lookahead, accepted when patterns were ECMAScript.
    await tenantDb().prepare("UPDATE custom_fields SET pattern = ? WHERE id = ?").bind("(?=a)a+", id).run();
    const refused = await clockIn(w, { customFields: { [id]: "aaa" } });
    expectInvalid(refused, [`customFields.${id}`]);
    expect(refused.body.errors[0].message).toContain("an admin must replace it");
    expect(await shiftCount(w)).toBe(0);
    expect((await api("PATCH", fieldsPath(w, `/${id}`), { token: w.org.adminToken, body: { pattern: "a+" } })).status).toBe(200);
    expect((await clockIn(w, { customFields: { [id]: "aaa" } })).status).toBe(200);
  });
});
