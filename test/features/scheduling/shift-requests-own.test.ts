import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { addWorker, createEntry, createSchedulePlace, type SchedulePlace } from "../../helpers/schedules";
import { createStaffMember, staffToken } from "../../helpers/staff";

const requests = (p: SchedulePlace) => `${p.base}/shift-requests`;
const MONDAY = { startTime: "2027-03-15T10:00:00Z", endTime: "2027-03-15T14:00:00Z" };

async function manager(p: SchedulePlace) {
  const staff = await createStaffMember(p.org, { locationIds: [p.location.id], accessRoleName: "Manager" });
  return { id: staff.id, token: await staffToken(p.org, staff.id) };
}

async function worker(p: SchedulePlace) {
  const staff = await addWorker(p);
  return { id: staff.id, token: await staffToken(p.org, staff.id) };
}

const statusOf = async (p: SchedulePlace, url: string) => (await api("GET", url, { token: p.org.adminToken })).body.status;

describe("nobody approves a shift request they made or accepted", () => {
  it("a manager's own drop, accepted by a colleague: their approval is 403 and moves nothing; another manager approves", async () => {
    const p = await createSchedulePlace();
    const [own, other, taker] = [await manager(p), await manager(p), await worker(p)];
    const entry = await createEntry(p, { ...MONDAY, employeeId: own.id });
    const created = await api("POST", requests(p), { token: own.token, body: { type: "DROP", scheduleEntryId: entry.id } });
    expect(created.status).toBe(201);
    const url = `${requests(p)}/${created.body.id}`;
    expect((await api("POST", `${url}/accept`, { token: taker.token })).status).toBe(200);
    const refused = await api("POST", `${url}/approve`, { token: own.token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("FORBIDDEN");
    expect(await statusOf(p, url)).toBe("ACCEPTED");
    expect((await api("GET", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken })).body.employeeId).toBe(own.id);
    const approved = await api("POST", `${url}/approve`, { token: other.token });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "APPROVED", decidedBy: other.id });
  });

  it("a manager who accepted an open drop cannot approve it; the organization's token can", async () => {
    const p = await createSchedulePlace();
    const acceptor = await manager(p);
    const entry = await createEntry(p, MONDAY);
    const created = await api("POST", requests(p), { token: p.token, body: { type: "DROP", scheduleEntryId: entry.id } });
    const url = `${requests(p)}/${created.body.id}`;
    expect((await api("POST", `${url}/accept`, { token: acceptor.token })).status).toBe(200);
    expect((await api("POST", `${url}/approve`, { token: acceptor.token })).status).toBe(403);
    expect(await statusOf(p, url)).toBe("ACCEPTED");
    expect((await api("POST", `${url}/approve`, { token: p.org.adminToken })).status).toBe(200);
  });
});
