import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { changes, snapshot } from "../../helpers/db-snapshot";
import { createEntry, createOpenShift, createSchedulePlace, type SchedulePlace } from "../../helpers/schedules";
import { createPolicy, orgPath } from "../../helpers/time-off";

/** A place whose worker has an 09:00–17:00 published entry on 2027-06-01 and a policy (approval as told). */
async function scheduledWorker(requiresApproval = true) {
  const p = await createSchedulePlace("UTC");
  const entry = await createEntry(p, { startTime: "2027-06-01T09:00:00Z", endTime: "2027-06-01T17:00:00Z" });
  const policy = await createPolicy(p.org, { requiresApproval, allowNegativeBalance: true });
  return { p, entry, policy };
}

const request = (p: SchedulePlace, policyId: string) =>
  api("POST", orgPath(p.org, "/time-off-requests"), {
    token: p.token,
    body: { policyId, startTime: "2027-06-01T08:00:00Z", endTime: "2027-06-01T12:00:00Z" },
  });

const approve = (p: SchedulePlace, id: string, body?: unknown) =>
  api("POST", orgPath(p.org, `/time-off-requests/${id}/approve`), { token: p.org.adminToken, ...(body === undefined ? {} : { body }) });

describe("time off meets the published schedule in either order", () => {
  it("approving time off over published work is 409 SCHEDULE_CONFLICT naming the entries, and changes nothing", async () => {
    const { p, entry, policy } = await scheduledWorker();
    const pending = await request(p, policy.id);
    expect(pending.status, pending.text).toBe(201);
    const before = await snapshot();
    const res = await approve(p, pending.body.id);
    expect(res.status, res.text).toBe(409);
    expect(res.body).toMatchObject({ code: "SCHEDULE_CONFLICT", scheduleEntryIds: [entry.id] });
    expect(changes(before, await snapshot())).toEqual([]);
  });

  it("cancelConflictingEntries: true removes them in the approval's batch, each with its event", async () => {
    const { p, entry, policy } = await scheduledWorker();
    const pending = await request(p, policy.id);
    const res = await approve(p, pending.body.id, { cancelConflictingEntries: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("approved");
    expect((await api("GET", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken })).status).toBe(404);
    const events = (await api("GET", `/api/organizations/${p.org.id}/events`, { token: p.org.adminToken })).body as {
      type: string;
      data: { id: string };
    }[];
    expect(events.filter((e) => e.type === "schedule_entry.deleted").map((e) => e.data.id)).toEqual([entry.id]);
    expect(events.at(-1)!.type).toBe("schedule_entry.deleted");
  });

  it("a request its policy approves at once over published work is 409 SCHEDULE_CONFLICT, and nothing is written", async () => {
    const { p, entry, policy } = await scheduledWorker(false);
    const before = await snapshot();
    const res = await request(p, policy.id);
    expect(res.status, res.text).toBe(409);
    expect(res.body).toMatchObject({ code: "SCHEDULE_CONFLICT", scheduleEntryIds: [entry.id] });
    expect(changes(before, await snapshot())).toEqual([]);
  });

  it("a PREFERRED preference on an open shift during approved time off is 409 TIME_OFF_CONFLICT; NOT_PREFERRED is taken", async () => {
    const p = await createSchedulePlace("UTC");
    const policy = await createPolicy(p.org, { requiresApproval: false, allowNegativeBalance: true });
    const away = await api("POST", orgPath(p.org, "/time-off-requests"), {
      token: p.token,
      body: { policyId: policy.id, startTime: "2027-06-02T00:00:00Z", endTime: "2027-06-03T00:00:00Z" },
    });
    expect(away.body.status).toBe("approved");
    const shift = await createOpenShift(p, { requireApproval: true, startDate: "2027-06-02T09:00:00Z", endDate: "2027-06-02T17:00:00Z" });
    const prefer = (preference: string) =>
      api("POST", `${p.base}/open-shifts/${shift.id}/preferences`, { token: p.token, body: { preference } });
    const preferred = await prefer("PREFERRED");
    expect(preferred.status, preferred.text).toBe(409);
    expect(preferred.body.code).toBe("TIME_OFF_CONFLICT");
    expect((await prefer("NOT_PREFERRED")).status).toBe(201);
  });
});
