import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { unique } from "../../helpers/fixtures";
import { lockStatement, meanwhile } from "../../helpers/meanwhile";
import { tenantDb } from "../../helpers/shards";
import { createManual } from "../../helpers/timesheets";
import { clockIn, createBreakType, createWorkplace, minutesAgo, punch, type Workplace } from "../../helpers/workplace";

const count = async (table: string, column: string, value: string) =>
  (await tenantDb().prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`).bind(value).first<{ n: number }>())!.n;

/** A wall-clock time of a UTC location, as the timesheets take it. */
const utcWallClock = (iso: string) => `${iso.slice(0, 19)}Z`;

const shiftOf = async (w: Workplace, id: string) => (await api("GET", `/api/timesheets/${id}`, { token: w.org.adminToken })).body;

/** A punch whose write batch meets `statements`, written by "another request" after the punch read. */
async function punchMeanwhile(w: Workplace, action: string, body: Record<string, unknown>, statements: string[]) {
  const key = unique(action);
  const drop = await meanwhile(key, statements);
  try {
    return await punch(w, action, body, { "Idempotency-Key": key });
  } finally {
    await drop();
  }
}

describe("clock-in never overlaps another shift (409 SHIFT_OVERLAP)", () => {
  it("refuses an offline clock-in inside an already closed shift; back-to-back is fine", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    await clockIn(w, { occurredAt: minutesAgo(180) });
    expect((await punch(w, "clock-out", { occurredAt: minutesAgo(60) })).status).toBe(200);
    const inside = await clockIn(w, { occurredAt: minutesAgo(120) });
    expect(inside.status).toBe(409);
    expect(inside.body.code).toBe("SHIFT_OVERLAP");
    expect(await count("shifts", "employee_id", w.staff.id)).toBe(1);
    expect(await count("shift_events", "employee_id", w.staff.id)).toBe(2);
  });

  it("refuses a clock-in inside a manual shift, and one before it (an open shift runs on)", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const manual = { startTime: utcWallClock(minutesAgo(300)), endTime: utcWallClock(minutesAgo(200)), utcOffset: 0 };
    await createManual(w, manual);
    for (const occurredAt of [minutesAgo(250), minutesAgo(400)]) {
      const res = await clockIn(w, { occurredAt });
      expect(res.status, occurredAt).toBe(409);
      expect(res.body.code).toBe("SHIFT_OVERLAP");
    }
    expect(await count("shifts", "employee_id", w.staff.id)).toBe(1);
    expect((await clockIn(w, { occurredAt: `${manual.endTime.slice(0, 19)}.000Z` })).status).toBe(200);
  });
});

describe("a clock-in racing another", () => {
  it("one opened meanwhile makes it 409 SHIFT_ALREADY_OPEN (the one-open-shift index), not SHIFT_OVERLAP", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const occurredAt = minutesAgo(1);
    const opened = Date.now() - 30_000;
    const res = await punchMeanwhile(w, "clock-in", { roleId: w.roleId, occurredAt }, [
      `INSERT INTO shifts (id, organization_id, employee_id, location_id, role_id, start_at, utc_offset, business_date,
         created_at, updated_at)
       VALUES ('${unique("winner")}', '${w.org.id}', '${w.staff.id}', '${w.location.id}', '${w.roleId}', ${opened}, 0,
         '${occurredAt.slice(0, 10)}', ${opened}, ${opened})`,
    ]);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("SHIFT_ALREADY_OPEN");
  });
});

describe("a day locked between a punch's read and its write refuses the punch (409 DAY_LOCKED)", () => {
  it("clock-in: the shift insert carries the lock guard", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const occurredAt = minutesAgo(1);
    const res = await punchMeanwhile(w, "clock-in", { roleId: w.roleId, occurredAt }, [
      lockStatement(w.org.id, w.location.id, occurredAt.slice(0, 10)),
    ]);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("DAY_LOCKED");
    expect(await count("shifts", "employee_id", w.staff.id)).toBe(0);
    expect(await count("locked_days", "location_id", w.location.id)).toBe(0);
  });

  it("break start, break end and clock-out: each write is guarded on the shift's business date", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const lunch = await createBreakType(w);
    const opened = await clockIn(w, { occurredAt: minutesAgo(60) });
    const lock = [lockStatement(w.org.id, w.location.id, opened.body.businessDate)];
    const steps: [string, Record<string, unknown>][] = [
      ["break-start", { typeId: lunch.id }],
      ["break-end", {}],
      ["clock-out", {}],
    ];
    for (const [action, body] of steps) {
      const raced = await punchMeanwhile(w, action, body, lock);
      expect(raced.status, action).toBe(409);
      expect(raced.body.code, action).toBe("DAY_LOCKED");
      expect((await punch(w, action, body)).status, action).toBe(200);
    }
    expect(await count("shift_events", "employee_id", w.staff.id)).toBe(4);
  });
});

describe("a shift changed between a punch's read and its write refuses the punch (409 SHIFT_CHANGED)", () => {
  it("clock-out writes only the columns it changes", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const opened = await clockIn(w, { occurredAt: minutesAgo(60) });
    const out = await punchMeanwhile(w, "clock-out", {}, [`UPDATE shifts SET hourly_wage = 99 WHERE id = '${opened.body.id}'`]);
    expect(out.status).toBe(200);
    expect(await shiftOf(w, opened.body.id)).toMatchObject({ hourlyWage: 99, active: false, duration: out.body.duration });
  });

  it("a PATCH /api/timesheets/{id} landing meanwhile refuses the clock-out instead of being undone", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const opened = await clockIn(w, { occurredAt: minutesAgo(60) });
    const raced = await punchMeanwhile(w, "clock-out", {}, [
      `UPDATE shifts SET hourly_wage = 99, updated_at = updated_at + 1 WHERE id = '${opened.body.id}'`,
    ]);
    expect(raced.status).toBe(409);
    expect(raced.body.code).toBe("SHIFT_CHANGED");
    expect(await shiftOf(w, opened.body.id)).toMatchObject({ active: true, endTime: null });
    expect((await punch(w, "clock-out")).status).toBe(200);
  });

  it("clock-out never closes a break started after its read (before the break began)", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const lunch = await createBreakType(w);
    const opened = await clockIn(w, { occurredAt: minutesAgo(60) });
    const breakId = unique("late-break");
    const startedLater = Date.now() + 60_000;
    const raced = await punchMeanwhile(w, "clock-out", { occurredAt: minutesAgo(5) }, [
      `INSERT INTO shift_breaks (id, organization_id, shift_id, type_id, name, paid, mandatory, frequency_minutes,
         duration_in_settings_minutes, start_at, end_at, automatic)
       VALUES ('${breakId}', '${w.org.id}', '${opened.body.id}', '${lunch.id}', 'Lunch', 0, 0, 360, 30, ${startedLater}, NULL, 0)`,
      `UPDATE shifts SET updated_at = updated_at + 1 WHERE id = '${opened.body.id}'`,
    ]);
    expect(raced.status).toBe(409);
    expect(raced.body.code).toBe("SHIFT_CHANGED");
    expect(await count("shift_breaks", "id", breakId)).toBe(0);
    expect((await shiftOf(w, opened.body.id)).active).toBe(true);
  });

  it("break start and break end are refused when the shift changed meanwhile (e.g. its flags)", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const lunch = await createBreakType(w);
    const opened = await clockIn(w, { occurredAt: minutesAgo(60) });
    const flagged = [`UPDATE shifts SET flags = '["IP_FAR"]', updated_at = updated_at + 1 WHERE id = '${opened.body.id}'`];
    const start = await punchMeanwhile(w, "break-start", { typeId: lunch.id }, flagged);
    expect(start.status).toBe(409);
    expect(start.body.code).toBe("SHIFT_CHANGED");
    expect((await punch(w, "break-start", { typeId: lunch.id })).status).toBe(200);
    const reflagged = [`UPDATE shifts SET flags = '["MOCK_LOCATION"]', updated_at = updated_at + 1 WHERE id = '${opened.body.id}'`];
    const end = await punchMeanwhile(w, "break-end", {}, reflagged);
    expect(end.status).toBe(409);
    expect(end.body.code).toBe("SHIFT_CHANGED");
  });

  it("simultaneous clock-outs close the shift once; the others are 409 NO_OPEN_SHIFT", async () => {
    const w = await createWorkplace();
    await clockIn(w, { occurredAt: minutesAgo(30) });
    const results = await Promise.all(Array.from({ length: 5 }, () => punch(w, "clock-out")));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status !== 200).map((r) => r.body.code)).toEqual(Array(4).fill("NO_OPEN_SHIFT"));
  });
});

describe("a switch whose shift another request ended meanwhile is 409 SHIFT_CHANGED, not NO_OPEN_SHIFT", () => {
  async function assignedCode(w: Workplace) {
    const created = await api("POST", `/api/organizations/${w.org.id}/cost-codes`, {
      token: w.org.adminToken,
      body: { code: unique("C"), name: "Code" },
    });
    const put = await api("PUT", `/api/organizations/${w.org.id}/cost-codes/${created.body.id}/assignments`, {
      token: w.org.adminToken,
      body: { all: true },
    });
    expect(put.status, put.text).toBe(200);
    return created.body.id as string;
  }

  it("the loser of a race to end the shift (another switch's clock-out) is 409 SHIFT_CHANGED and writes nothing", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const costCodeId = await assignedCode(w);
    const opened = await clockIn(w, { occurredAt: minutesAgo(60) });
    const endedAt = Date.now() - 60_000;
    const raced = await punchMeanwhile(w, "switch", { costCodeId }, [
      `UPDATE shifts SET end_at = ${endedAt}, updated_at = updated_at + 1 WHERE id = '${opened.body.id}'`,
    ]);
    expect(raced.status, raced.text).toBe(409);
    expect(raced.body.code).toBe("SHIFT_CHANGED");
    expect(await count("shifts", "employee_id", w.staff.id)).toBe(1);
    expect((await shiftOf(w, opened.body.id)).endTime).toBeNull();
  });

  it("simultaneous switches: each is 200 or 409 SHIFT_CHANGED, never NO_OPEN_SHIFT; one shift stays open", async () => {
    const w = await createWorkplace();
    const costCodeId = await assignedCode(w);
    await clockIn(w, { occurredAt: minutesAgo(30) });
    const results = await Promise.all(Array.from({ length: 5 }, () => punch(w, "switch", { costCodeId })));
    expect(results.filter((r) => r.status !== 200).map((r) => r.body.code)).toEqual(
      results.filter((r) => r.status !== 200).map(() => "SHIFT_CHANGED"),
    );
    const open = await tenantDb()
      .prepare("SELECT COUNT(*) AS n FROM shifts WHERE employee_id = ? AND end_at IS NULL")
      .bind(w.staff.id)
      .first<{ n: number }>();
    expect(open!.n).toBe(1);
  });
});

/** An open break stored as starting after now (say, from a phone's fast clock), with no event of its own. */
async function openBreakStartingLater(w: Workplace, shiftId: string) {
  const lunch = await createBreakType(w);
  const startsAt = Date.now() + 90_000;
  await tenantDb()
    .prepare(
      `INSERT INTO shift_breaks (id, organization_id, shift_id, type_id, name, paid, mandatory, frequency_minutes,
       duration_in_settings_minutes, start_at, end_at, automatic) VALUES (?, ?, ?, ?, 'Lunch', 0, 0, 360, 30, ?, NULL, 0)`,
    )
    .bind(unique("break"), w.org.id, shiftId, lunch.id, startsAt)
    .run();
  return startsAt;
}

describe("breaks end as the domain's closeBreaks ends them", () => {
  it("break end: a break that starts after the instant ends at its start, never before it", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const opened = await clockIn(w, { occurredAt: minutesAgo(60) });
    const startsAt = await openBreakStartingLater(w, opened.body.id);
    const ended = await punch(w, "break-end");
    expect(ended.status).toBe(200);
    expect(ended.body.breaks[0].utcEndTime).toBe(new Date(startsAt).toISOString());
    expect((await shiftOf(w, opened.body.id)).breaks[0].utcEndTime).toBe(new Date(startsAt).toISOString());
  });

  it("clock-out: likewise for the break it ends", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const opened = await clockIn(w, { occurredAt: minutesAgo(60) });
    const startsAt = await openBreakStartingLater(w, opened.body.id);
    const out = await punch(w, "clock-out");
    expect(out.status).toBe(200);
    expect(out.body.breaks).toHaveLength(1);
    expect(out.body.breaks[0].utcEndTime).toBe(new Date(startsAt).toISOString());
    expect(out.body.totalUnpaidBreaks).toBe(0);
    const stored = await shiftOf(w, opened.body.id);
    expect(stored.breaks[0].utcEndTime).toBe(new Date(startsAt).toISOString());
  });
});
