import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { addWorker, createEntry, createSchedulePlace, type SchedulePlace } from "../../helpers/schedules";
import { staffToken } from "../../helpers/staff";

// Defects an outside mutation sample planted that the suite let through (issue 45 item 6): the rest window's exact
// edge on create and PATCH, a consent given for another entry, and the change log of a staff member without
// SCHEDULE_READ. Each test here fails with its defect planted.

const DAY = 86_400_000;
/** A wall-clock time `days` from now at a UTC location (its local time is UTC). */
const at = (days: number, hour: number, minute = 0) => {
  const d = new Date(Date.now() + days * DAY);
  d.setUTCHours(hour, minute, 0, 0);
  return d.toISOString().replace(".000Z", "Z");
};
const dateOf = (time: string) => time.slice(0, 10);

/** A UTC location under NYC fast food: 11 h of rest between a closing and the next day's opening, consent required. */
async function nycPlace(): Promise<SchedulePlace> {
  const p = await createSchedulePlace("UTC");
  const res = await api("PUT", `${p.base}/fair-workweek`, { token: p.org.adminToken, body: { rulePack: "NYC_FAST_FOOD" } });
  expect(res.status).toBe(200);
  return p;
}

const create = (p: SchedulePlace, startTime: string, endTime: string, consentId?: string) =>
  api("POST", `${p.base}/schedules`, {
    token: p.org.adminToken,
    body: { employeeId: p.staff.id, roleId: p.roleId, startTime, endTime, ...(consentId ? { consentId } : {}) },
  });

const patch = (p: SchedulePlace, id: string, body: Record<string, unknown>) =>
  api("PATCH", `${p.base}/schedules/${id}`, { token: p.org.adminToken, body });

/** The entry's stored start, as an instant (the API answers milliseconds too). */
const startOf = async (p: SchedulePlace, id: string) =>
  Date.parse((await api("GET", `${p.base}/schedules/${id}`, { token: p.org.adminToken })).body.startTime);

/** The worker's own REST consent, for one entry or (none named) any. */
const consent = async (p: SchedulePlace, scheduleEntryId?: string) => {
  const res = await api("POST", `/api/organizations/${p.org.id}/staffmembers/${p.staff.id}/consents`, {
    token: p.token,
    body: { kind: "REST", ...(scheduleEntryId ? { scheduleEntryId } : {}) },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
};

const expectConsentRequired = (res: { status: number; body: Record<string, unknown> }, name: string) => {
  expect(res.status, name).toBe(409);
  expect(res.body.code, name).toBe("REST_CONSENT_REQUIRED");
};

describe("rest between shifts: the window's edge (NYC: 11 h = 660 minutes)", () => {
  it("create: after a closing 14:00–23:00, an opening at 10:00 (660 min) needs no consent; at 09:59 (659 min), 409", async () => {
    const p = await nycPlace();
    await createEntry(p, { startTime: at(5, 14), endTime: at(5, 23) });
    expectConsentRequired(await create(p, at(6, 9, 59), at(6, 12)), "09:59");
    expect((await create(p, at(6, 10), at(6, 12))).status).toBe(201);
  });

  it("create: before an opening at 06:00, a closing ending 19:00 (660 min) needs no consent; ending 19:01 (659 min), 409", async () => {
    const p = await nycPlace();
    await createEntry(p, { startTime: at(9, 6), endTime: at(9, 12) });
    expectConsentRequired(await create(p, at(8, 14), at(8, 19, 1)), "19:01");
    expect((await create(p, at(8, 14), at(8, 19))).status).toBe(201);
  });

  it("PATCH: after a closing 14:00–23:00, moving a 12:00 opening to 09:59 (659 min) is 409 and keeps it; to 10:00 (660 min), 200", async () => {
    const p = await nycPlace();
    await createEntry(p, { startTime: at(5, 14), endTime: at(5, 23) });
    const opening = await createEntry(p, { startTime: at(6, 12), endTime: at(6, 16) });
    expectConsentRequired(await patch(p, opening.id, { startTime: at(6, 9, 59) }), "09:59");
    expect(await startOf(p, opening.id)).toBe(Date.parse(at(6, 12)));
    const moved = await patch(p, opening.id, { startTime: at(6, 10) });
    expect(moved.status, moved.text).toBe(200);
    expect(Date.parse(moved.body.startTime)).toBe(Date.parse(at(6, 10)));
  });
});

describe("rest between shifts: a consent given for another entry", () => {
  it("create: an 06:00 opening 7 h after a 23:00 closing naming the worker's consent for another entry is 409; a general one, 201", async () => {
    const p = await nycPlace();
    await createEntry(p, { startTime: at(5, 14), endTime: at(5, 23) });
    const elsewhere = await createEntry(p, { startTime: at(20, 9), endTime: at(20, 17) });
    const forElsewhere = await consent(p, elsewhere.id);
    expectConsentRequired(await create(p, at(6, 6), at(6, 12), forElsewhere), "consent for another entry");
    const general = await consent(p);
    expect((await create(p, at(6, 6), at(6, 12), general)).status).toBe(201);
  });

  it("PATCH: moving a 13:00 opening to 06:00, 7 h after a 23:00 closing, naming a consent for another entry is 409; its own, 200", async () => {
    const p = await nycPlace();
    await createEntry(p, { startTime: at(5, 14), endTime: at(5, 23) });
    const opening = await createEntry(p, { startTime: at(6, 13), endTime: at(6, 17) });
    const elsewhere = await createEntry(p, { startTime: at(20, 9), endTime: at(20, 17) });
    const forElsewhere = await consent(p, elsewhere.id);
    const early = { startTime: at(6, 6), endTime: at(6, 12) };
    expectConsentRequired(await patch(p, opening.id, { ...early, consentId: forElsewhere }), "consent for another entry");
    expect(await startOf(p, opening.id)).toBe(Date.parse(at(6, 13)));
    const forOpening = await consent(p, opening.id);
    const moved = await patch(p, opening.id, { ...early, consentId: forOpening });
    expect(moved.status, moved.text).toBe(200);
  });
});

describe("the change log of a staff member without SCHEDULE_READ", () => {
  it("lists exactly their own changes (an entry added 3 days out), never a colleague's (4 and 5 days out), whatever employeeId asks", async () => {
    const p = await nycPlace();
    const colleague = await addWorker(p);
    const mine = await createEntry(p, { startTime: at(3, 9), endTime: at(3, 17) });
    const theirs = await createEntry(p, { employeeId: colleague.id, startTime: at(4, 9), endTime: at(4, 17) });
    // A change the publish records (a draft first published inside the window), beside the ones a create records.
    const draft = await createEntry(p, { employeeId: colleague.id, startTime: at(5, 9), endTime: at(5, 17) }, true);
    const published = await api("POST", `${p.base}/schedules/publish`, {
      token: p.org.adminToken,
      body: { startDate: dateOf(at(5, 0)), endDate: dateOf(at(5, 0)) },
    });
    expect(published.status, published.text).toBe(200);
    const list = async (token: string, query = "") => {
      const res = await api(
        "GET",
        `/api/organizations/${p.org.id}/schedule-changes?startDate=${dateOf(at(0, 0))}&endDate=${dateOf(at(30, 0))}${query}`,
        { token },
      );
      expect(res.status, res.text).toBe(200);
      return (res.body as { scheduleEntryId: string; employeeId: string }[]).map((c) => [c.employeeId, c.scheduleEntryId]);
    };
    // All ADDED inside NYC's 14-day window: the manager sees the three.
    expect(await list(p.org.adminToken)).toEqual([
      [p.staff.id, mine.id],
      [colleague.id, theirs.id],
      [colleague.id, draft.id],
    ]);
    expect(await list(p.token)).toEqual([[p.staff.id, mine.id]]);
    expect(await list(p.token, `&locationId=${p.location.id}`)).toEqual([[p.staff.id, mine.id]]);
    expect(await list(p.token, `&employeeId=${colleague.id}`)).toEqual([]);
    expect(await list(await staffToken(p.org, colleague.id))).toEqual([
      [colleague.id, theirs.id],
      [colleague.id, draft.id],
    ]);
  });
});
