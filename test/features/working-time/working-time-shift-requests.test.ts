import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { requestWithInterference } from "../../helpers/interfering-d1";
import { addWorker, createEntry, createWorkingTimePlace, type SchedulePlace } from "../../helpers/schedules";
import { createStaffMember, staffToken } from "../../helpers/staff";

/*
 * Issue 47: a shift request's approval moves published entries between workers, so it is judged by the location's
 * working-time pack as a schedule write is. Germany, ArbZG §5(1): 11 hours' rest. The taker works 2035-06-04
 * 14:00–22:00 (UTC); an entry given to them starting 07:00 the next day leaves 9 hours (refused), 09:00 exactly 11.
 */

const worker = async (p: SchedulePlace) => {
  const staff = await addWorker(p);
  return { id: staff.id, token: await staffToken(p.org, staff.id) };
};

/** A drop of the requester's entry starting 2035-06-05 at `start`, accepted by a taker who works the evening before. */
async function acceptedDrop(start: string) {
  const p = await createWorkingTimePlace("DE");
  const taker = await worker(p);
  const evening = await createEntry(p, { employeeId: taker.id, startTime: "2035-06-04T14:00:00Z", endTime: "2035-06-04T22:00:00Z" });
  const given = await createEntry(p, { startTime: start, endTime: "2035-06-05T15:00:00Z" });
  const created = await api("POST", `${p.base}/shift-requests`, { token: p.token, body: { type: "DROP", scheduleEntryId: given.id } });
  expect(created.status, created.text).toBe(201);
  const url = `${p.base}/shift-requests/${created.body.id}`;
  expect((await api("POST", `${url}/accept`, { token: taker.token })).status).toBe(200);
  return { p, taker, evening, given, url };
}

const entryOf = async (p: SchedulePlace, id: string) => (await api("GET", `${p.base}/schedules/${id}`, { token: p.org.adminToken })).body;

describe("shift request approval (ArbZG §5(1): 11 hours' rest)", () => {
  it("refuses a drop leaving the taker 9 hours' rest: 409 listing the violation, nothing moves", async () => {
    const { p, taker, evening, given, url } = await acceptedDrop("2035-06-05T07:00:00Z");
    const res = await api("POST", `${url}/approve`, { token: p.org.adminToken });
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe("WORKING_TIME_CONFLICT");
    expect(res.body.violations).toEqual([
      {
        rule: "REST_BETWEEN_SHIFTS",
        limit: 11,
        actual: 9,
        unit: "HOURS",
        date: "2035-06-05",
        scheduleEntryIds: [evening.id, given.id],
        shiftIds: [],
        source: "ArbZG §5(1)",
      },
    ]);
    expect((await entryOf(p, given.id)).employeeId).toBe(p.staff.id);
    expect((await api("GET", url, { token: p.org.adminToken })).body.status).toBe("ACCEPTED");
    expect(taker.id).not.toBe(p.staff.id);
  });

  it("approves a drop leaving exactly 11 hours without an override", async () => {
    const { p, taker, given, url } = await acceptedDrop("2035-06-05T09:00:00Z");
    const res = await api("POST", `${url}/approve`, { token: p.org.adminToken });
    expect(res.status, res.text).toBe(200);
    const entry = await entryOf(p, given.id);
    expect(entry.employeeId).toBe(taker.id);
    expect(entry.workingTimeOverride).toBeNull();
  });

  it("an override needs WORKING_TIME_OVERRIDE; with it the entry moves and keeps it, in its event too", async () => {
    const { p, taker, given, url } = await acceptedDrop("2035-06-05T07:00:00Z");
    const role = await api("POST", `/api/organizations/${p.org.id}/access-roles`, {
      token: p.org.adminToken,
      body: { name: "Scheduler without override", permissions: ["SCHEDULE_WRITE"] },
    });
    const manager = await createStaffMember(p.org, { locationIds: [p.location.id], accessRoleId: role.body.id });
    const body = { workingTimeOverride: { reason: "Covering a sick colleague, agreed with the works council" } };
    const refused = await api("POST", `${url}/approve`, { token: await staffToken(p.org, manager.id), body });
    expect(refused.status, refused.text).toBe(403);
    expect((await entryOf(p, given.id)).employeeId).toBe(p.staff.id);

    const res = await api("POST", `${url}/approve`, { token: p.org.adminToken, body });
    expect(res.status, res.text).toBe(200);
    const entry = await entryOf(p, given.id);
    expect(entry.employeeId).toBe(taker.id);
    expect(entry.workingTimeOverride).toMatchObject({
      reason: "Covering a sick colleague, agreed with the works council",
      violations: [{ rule: "REST_BETWEEN_SHIFTS", limit: 11, actual: 9, unit: "HOURS", source: "ArbZG §5(1)" }],
    });
    const events = (await api("GET", `/api/organizations/${p.org.id}/events?limit=500`, { token: p.org.adminToken })).body as {
      type: string;
      data: Record<string, any>;
    }[];
    const moved = events.filter((e) => e.type === "schedule_entry.updated" && e.data.id === given.id);
    expect(moved).toHaveLength(1);
    expect(moved[0]!.data.workingTimeOverride.reason).toBe("Covering a sick colleague, agreed with the works council");
  });

  it("a swap is judged on both sides: the entry given back may not break the requester's rest", async () => {
    const p = await createWorkingTimePlace("DE");
    const other = await worker(p);
    // The requester works 2035-06-04 14:00–22:00 and gives away Thursday; the entry given back starts 07:00 on the 5th.
    await createEntry(p, { startTime: "2035-06-04T14:00:00Z", endTime: "2035-06-04T22:00:00Z" });
    const mine = await createEntry(p, { startTime: "2035-06-07T09:00:00Z", endTime: "2035-06-07T15:00:00Z" });
    const swap = async (backStart: string) => {
      const theirs = await createEntry(p, { employeeId: other.id, startTime: backStart, endTime: "2035-06-05T15:00:00Z" });
      const created = await api("POST", `${p.base}/shift-requests`, {
        token: p.token,
        body: { type: "SWAP", scheduleEntryId: mine.id, targetEmployeeId: other.id, targetScheduleEntryId: theirs.id },
      });
      expect(created.status, created.text).toBe(201);
      const url = `${p.base}/shift-requests/${created.body.id}`;
      expect((await api("POST", `${url}/accept`, { token: other.token })).status).toBe(200);
      return { theirs, url };
    };
    const tooSoon = await swap("2035-06-05T07:00:00Z");
    const refused = await api("POST", `${tooSoon.url}/approve`, { token: p.org.adminToken });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.violations).toMatchObject([{ rule: "REST_BETWEEN_SHIFTS", limit: 11, actual: 9 }]);
    await api("POST", `${tooSoon.url}/cancel`, { token: p.token });
    await api("DELETE", `${p.base}/schedules/${tooSoon.theirs.id}`, { token: p.org.adminToken });

    const inTime = await swap("2035-06-05T09:00:00Z");
    const approved = await api("POST", `${inTime.url}/approve`, { token: p.org.adminToken });
    expect(approved.status, approved.text).toBe(200);
    expect((await entryOf(p, mine.id)).employeeId).toBe(other.id);
    expect((await entryOf(p, inTime.theirs.id)).employeeId).toBe(p.staff.id);
  });

  it("an approval judged before the taker's evening entry lands is refused by its batch (409, judged again), nothing moves", async () => {
    const p = await createWorkingTimePlace("DE");
    const taker = await worker(p);
    const given = await createEntry(p, { startTime: "2035-06-05T07:00:00Z", endTime: "2035-06-05T15:00:00Z" });
    const created = await api("POST", `${p.base}/shift-requests`, { token: p.token, body: { type: "DROP", scheduleEntryId: given.id } });
    const url = `${p.base}/shift-requests/${created.body.id}`;
    expect((await api("POST", `${url}/accept`, { token: taker.token })).status).toBe(200);
    let evening = "";
    // The approval reads the taker's time (nothing on the 4th), then the evening entry lands, then its batch runs.
    const res = await requestWithInterference(
      "POST",
      `${url}/approve`,
      { token: p.org.adminToken, body: {} },
      {
        before: /update "schedule_entries"/i,
        meanwhile: async () => {
          evening = (await createEntry(p, { employeeId: taker.id, startTime: "2035-06-04T14:00:00Z", endTime: "2035-06-04T22:00:00Z" })).id;
        },
      },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("WORKING_TIME_CONFLICT");
    expect(res.body.violations).toMatchObject([
      { rule: "REST_BETWEEN_SHIFTS", limit: 11, actual: 9, scheduleEntryIds: [evening, given.id] },
    ]);
    expect((await entryOf(p, given.id)).employeeId).toBe(p.staff.id);
  });
});
