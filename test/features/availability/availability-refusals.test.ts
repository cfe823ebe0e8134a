import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { expectInvalid } from "../../helpers/problems";
import { createSchedulePlace, entryBody, type SchedulePlace } from "../../helpers/schedules";
import { createStaffMember, staffToken } from "../../helpers/staff";

const rulesPath = (p: SchedulePlace, id = p.staff.id) => `/api/organizations/${p.org.id}/staffmembers/${id}/availability`;
/** Unavailable every Monday 08:00–12:00 New York time from 2027-03-01 (a Monday). */
const mondays = {
  type: "UNAVAILABLE",
  startTime: "2027-03-01T08:00:00Z",
  endTime: "2027-03-01T12:00:00Z",
  timezone: "America/New_York",
  recurrence: "FREQ=WEEKLY",
};
const MONDAY = { startTime: "2027-03-15T10:00:00Z", endTime: "2027-03-15T14:00:00Z" };
const TUESDAY = { startTime: "2027-03-16T10:00:00Z", endTime: "2027-03-16T14:00:00Z" };
const events = async (p: SchedulePlace) =>
  (
    (await api("GET", `/api/organizations/${p.org.id}/events?limit=500`, { token: p.org.adminToken })).body as {
      type: string;
      data: unknown;
    }[]
  ).filter((e) => e.type.startsWith("availability."));
const schedule = (p: SchedulePlace, slot: Record<string, string>) =>
  api("POST", `${p.base}/schedules/drafts`, { token: p.org.adminToken, body: entryBody(p, slot) });

async function createRule(p: SchedulePlace, body: Record<string, unknown> = mondays) {
  const res = await api("POST", rulesPath(p), { token: p.token, body });
  if (res.status !== 201) throw new Error(`availability: ${res.status} ${res.text}`);
  return res as { body: Record<string, any>; headers: Headers };
}

describe("availability: refusals and side effects", () => {
  it("a refused create is 400 VALIDATION_FAILED naming the field, and writes and records nothing", async () => {
    const p = await createSchedulePlace();
    const cases: [Record<string, unknown>, string][] = [
      [{ recurrence: "FREQ=HOURLY" }, "recurrence"],
      [{ recurrence: "FREQ=WEEKLY;DTSTART=20270301T080000Z" }, "recurrence"],
      [{ recurrence: "FREQ=WEEKLY;BYHOUR=9" }, "recurrence"],
      [{ endTime: "2027-03-01T08:00:00Z" }, "endTime"],
      [{ endTime: "2027-03-08T08:00:01Z" }, "endTime"],
      [{ timezone: "Mars/Olympus" }, "timezone"],
    ];
    for (const [body, path] of cases)
      expectInvalid(await api("POST", rulesPath(p), { token: p.token, body: { ...mondays, ...body } }), [path]);
    expect((await api("GET", rulesPath(p), { token: p.token })).body).toEqual([]);
    expect(await events(p)).toEqual([]);
  });

  it("created, updated and deleted each record their event with the rule as answered", async () => {
    const p = await createSchedulePlace();
    const created = await createRule(p);
    const url = `${rulesPath(p)}/${created.body.id}`;
    const patched = await api("PATCH", url, { token: p.token, body: { note: "Evening classes" } });
    const removed = await api("DELETE", url, { token: p.token });
    expect((await events(p)).map((e) => [e.type, e.data])).toEqual([
      ["availability.created", created.body],
      ["availability.updated", patched.body],
      ["availability.deleted", removed.body],
    ]);
  });

  it("a refused PATCH (bad rule, stale If-Match) changes nothing, keeps its guard and records nothing", async () => {
    const p = await createSchedulePlace();
    const created = await createRule(p);
    const url = `${rulesPath(p)}/${created.body.id}`;
    expectInvalid(await api("PATCH", url, { token: p.token, body: { recurrence: "FREQ=MINUTELY" } }), ["recurrence"]);
    expectInvalid(await api("PATCH", url, { token: p.token, body: { endTime: "2027-03-01T07:00:00Z" } }), ["endTime"]);
    const stale = await api("PATCH", url, { token: p.token, body: { type: "PREFERRED" }, headers: { "If-Match": '"0"' } });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe("PRECONDITION_FAILED");
    expect((await api("GET", url, { token: p.token })).body).toEqual(created.body);
    expect((await schedule(p, MONDAY)).body.code).toBe("WORKER_UNAVAILABLE");
    expect((await events(p)).map((e) => e.type)).toEqual(["availability.created"]);
  });

  it("a PATCH writes the occurrences again: the old day is free, the new one refused", async () => {
    const p = await createSchedulePlace();
    const created = await createRule(p);
    const res = await api("PATCH", `${rulesPath(p)}/${created.body.id}`, {
      token: p.token,
      body: { startTime: "2027-03-02T08:00:00Z", endTime: "2027-03-02T12:00:00Z" },
      headers: { "If-Match": created.headers.get("ETag")! },
    });
    expect(res.status).toBe(200);
    expect((await schedule(p, MONDAY)).status).toBe(201);
    expect((await schedule(p, TUESDAY)).body.code).toBe("WORKER_UNAVAILABLE");
  });

  it("a PREFERRED rule refuses nothing; turning UNAVAILABLE into PREFERRED frees its occurrences", async () => {
    const p = await createSchedulePlace();
    const created = await createRule(p);
    await api("PATCH", `${rulesPath(p)}/${created.body.id}`, { token: p.token, body: { type: "PREFERRED" } });
    expect((await schedule(p, MONDAY)).status).toBe(201);
  });

  it("DELETE: its occurrences stop counting; a stale If-Match is 412 and deletes nothing; a second DELETE is 404", async () => {
    const p = await createSchedulePlace();
    const created = await createRule(p);
    const url = `${rulesPath(p)}/${created.body.id}`;
    const stale = await api("DELETE", url, { token: p.token, headers: { "If-Match": '"0"' } });
    expect(stale.status).toBe(412);
    expect((await schedule(p, MONDAY)).body.code).toBe("WORKER_UNAVAILABLE");
    expect((await api("DELETE", url, { token: p.token })).status).toBe(200);
    expect((await schedule(p, MONDAY)).status).toBe(201);
    const again = await api("DELETE", url, { token: p.token });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("AVAILABILITY_NOT_FOUND");
    expect((await api("GET", rulesPath(p), { token: p.token })).body).toEqual([]);
  });

  it("EMPLOYEE_WRITE manages anyone's (a Manager); EMPLOYEE_READ alone reads but does not write", async () => {
    const p = await createSchedulePlace();
    const created = await createRule(p);
    const manager = await createStaffMember(p.org, { accessRoleName: "Manager" });
    const managerToken = await staffToken(p.org, manager.id);
    expect((await api("GET", rulesPath(p), { token: managerToken })).body).toEqual([created.body]);
    const patched = await api("PATCH", `${rulesPath(p)}/${created.body.id}`, { token: managerToken, body: { note: "Checked" } });
    expect(patched.status).toBe(200);
    const readerRole = await api("POST", `/api/organizations/${p.org.id}/access-roles`, {
      token: p.org.adminToken,
      body: { name: "Reader", permissions: ["EMPLOYEE_READ"] },
    });
    expect(readerRole.status).toBe(201);
    const reader = await createStaffMember(p.org, { accessRoleId: readerRole.body.id });
    const readerToken = await staffToken(p.org, reader.id);
    expect((await api("GET", rulesPath(p), { token: readerToken })).status).toBe(200);
    const refused = await api("POST", rulesPath(p), { token: readerToken, body: mondays });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("FORBIDDEN");
    expect((await api("GET", rulesPath(p), { token: p.token })).body).toHaveLength(1);
  });

  it("the occurrence listing: a reversed range is 400 naming endDate; a staff member naming a colleague sees nothing of theirs", async () => {
    const p = await createSchedulePlace();
    const colleague = await createStaffMember(p.org, { locationIds: [p.location.id], accessRoleName: "Employee" });
    await api("POST", rulesPath(p, colleague.id), { token: p.org.adminToken, body: mondays });
    const range = `/api/organizations/${p.org.id}/availability`;
    expectInvalid(await api("GET", `${range}?startDate=2027-03-10&endDate=2027-03-01`, { token: p.org.adminToken }), ["endDate"]);
    const theirs = await api("GET", `${range}?startDate=2027-03-01&endDate=2027-03-31&employeeId=${colleague.id}`, { token: p.token });
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual([]);
    const all = await api("GET", `${range}?startDate=2027-03-01&endDate=2027-03-31&employeeId=${colleague.id}`, {
      token: p.org.adminToken,
    });
    expect(all.body).toHaveLength(5);
  });
});
