import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { tenantDb } from "../../helpers/shards";
import { createManual } from "../../helpers/timesheets";
import { clockIn, createBreakType, createWorkplace, minutesAgo, punch, type Workplace } from "../../helpers/workplace";

interface BreakRow {
  id: string;
  type_id: string | null;
  name: string;
  paid: number;
  mandatory: number;
  frequency_minutes: number;
  duration_in_settings_minutes: number;
  start_at: number;
  end_at: number | null;
  automatic: number;
}

const breakRows = async (shiftId: string) =>
  (await tenantDb().prepare("SELECT * FROM shift_breaks WHERE shift_id = ? ORDER BY start_at, id").bind(shiftId).all<BreakRow>()).results;

const copyOf = async (shiftId: string) =>
  JSON.parse(
    (await tenantDb().prepare("SELECT breaks_json FROM shifts WHERE id = ?").bind(shiftId).first<{ breaks_json: string }>())!.breaks_json,
  );

/** What the wire shows of shift_breaks rows, straight from the table. */
const wireOf = (rows: BreakRow[]) =>
  rows.map((b) => ({
    typeId: b.type_id,
    paid: Boolean(b.paid),
    name: b.name,
    mandatory: Boolean(b.mandatory),
    frequencyMinutes: b.frequency_minutes,
    durationInSettingsMinutes: b.duration_in_settings_minutes,
    automatic: Boolean(b.automatic),
    utcStartTime: new Date(b.start_at).toISOString(),
    utcEndTime: b.end_at === null ? null : new Date(b.end_at).toISOString(),
  }));

/** GET /timesheets/{id} (which reads breaks_json) shows exactly the shift's shift_breaks rows; answers how many. */
async function expectInStep(w: Workplace, shiftId: string) {
  const rows = await breakRows(shiftId);
  const copy = await copyOf(shiftId);
  expect(copy.map((b: { id: string }) => b.id)).toEqual(rows.map((r) => r.id));
  const res = await api("GET", `/api/timesheets/${shiftId}`, { token: w.org.adminToken });
  expect(res.status).toBe(200);
  const shown = res.body.breaks.map(({ startTime: _s, endTime: _e, ...rest }: Record<string, unknown>) => rest);
  expect(shown).toEqual(wireOf(rows));
  return rows.length;
}

describe("shifts.breaks_json follows shift_breaks (database triggers)", () => {
  it("break start and end, then clock-out", async () => {
    const w = await createWorkplace();
    const lunch = await createBreakType(w, { name: "Lunch, long", paid: false });
    const coffee = await createBreakType(w, { name: 'Coffee "short"', paid: true, durationMinutes: 10 });
    const shiftId = (await clockIn(w, { occurredAt: minutesAgo(120) })).body.id as string;
    expect(await expectInStep(w, shiftId)).toBe(0);
    expect((await punch(w, "break-start", { typeId: lunch.id, occurredAt: minutesAgo(90) })).status).toBe(200);
    expect(await expectInStep(w, shiftId)).toBe(1);
    expect((await copyOf(shiftId))[0]).toMatchObject({ endAt: null, paid: false, name: "Lunch, long" });
    expect((await punch(w, "break-end", { occurredAt: minutesAgo(60) })).status).toBe(200);
    expect(await expectInStep(w, shiftId)).toBe(1);
    expect((await punch(w, "break-start", { typeId: coffee.id, occurredAt: minutesAgo(20) })).status).toBe(200);
    expect(await expectInStep(w, shiftId)).toBe(2);
    // Clock-out ends the open break.
    expect((await punch(w, "clock-out")).status).toBe(200);
    expect(await expectInStep(w, shiftId)).toBe(2);
    expect((await copyOf(shiftId))[1]).toMatchObject({ paid: true, name: 'Coffee "short"', endAt: expect.any(Number) });
  });

  it("no break added at clock-out for a mandatory type not taken (issue 44: a break not taken is never deducted)", async () => {
    const w = await createWorkplace();
    await createBreakType(w, { name: "Meal", mandatory: true, frequencyMinutes: 300, durationMinutes: 30 });
    const shiftId = (await clockIn(w, { occurredAt: minutesAgo(360) })).body.id as string;
    const out = await punch(w, "clock-out");
    expect(out.body.breaks).toHaveLength(0);
    expect(await expectInStep(w, shiftId)).toBe(0);
    expect(await copyOf(shiftId)).toEqual([]);
  });

  it("manual create with breaks, patch replacing them, patch removing them, and a delete of the rows", async () => {
    const w = await createWorkplace();
    const shift = await createManual(w, {
      startTime: "2026-03-14T09:00:00Z",
      endTime: "2026-03-14T17:00:00Z",
      breaks: [
        { startTime: "2026-03-14T15:00:00Z", endTime: "2026-03-14T15:10:00Z", paid: true },
        { startTime: "2026-03-14T12:00:00Z", endTime: "2026-03-14T12:30:00Z" },
      ],
    });
    expect(await expectInStep(w, shift.id)).toBe(2);
    const patch = (body: unknown) => api("PATCH", `/api/timesheets/${shift.id}`, { token: w.org.adminToken, body });
    expect(
      (await patch({ endTime: "2026-03-14T17:00:00Z", breaks: [{ startTime: "2026-03-14T13:00:00Z", endTime: "2026-03-14T13:45:00Z" }] }))
        .status,
    ).toBe(200);
    expect(await expectInStep(w, shift.id)).toBe(1);
    // A patch without breaks keeps them.
    expect((await patch({ endTime: "2026-03-14T18:00:00Z" })).status).toBe(200);
    expect(await expectInStep(w, shift.id)).toBe(1);
    expect((await patch({ endTime: "2026-03-14T18:00:00Z", breaks: [] })).status).toBe(200);
    expect(await expectInStep(w, shift.id)).toBe(0);
    expect(await copyOf(shift.id)).toEqual([]);
    await patch({ endTime: "2026-03-14T18:00:00Z", breaks: [{ startTime: "2026-03-14T13:00:00Z", endTime: "2026-03-14T13:45:00Z" }] });
    expect(await expectInStep(w, shift.id)).toBe(1);
    await tenantDb().prepare("DELETE FROM shift_breaks WHERE shift_id = ?").bind(shift.id).run();
    expect(await expectInStep(w, shift.id)).toBe(0);
  });

  it("the listing shows the same breaks as GET by id", async () => {
    const w = await createWorkplace();
    const shift = await createManual(w, {
      startTime: "2026-03-14T09:00:00Z",
      endTime: "2026-03-14T17:00:00Z",
      breaks: [{ startTime: "2026-03-14T12:00:00Z", endTime: "2026-03-14T12:30:00Z" }],
    });
    const listed = await api("GET", `/api/timesheets?startDate=2026-03-14&endDate=2026-03-14`, { token: w.org.adminToken });
    const one = await api("GET", `/api/timesheets/${shift.id}`, { token: w.org.adminToken });
    expect(listed.body.shifts).toHaveLength(1);
    expect(listed.body.shifts[0].breaks).toEqual(one.body.breaks);
    expect(one.body.breaks).toHaveLength(1);
  });
});
