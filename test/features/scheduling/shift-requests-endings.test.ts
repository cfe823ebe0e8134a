import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { requestWithInterference } from "../../helpers/interfering-d1";
import { addWorker, createEntry, createSchedulePlace, type SchedulePlace } from "../../helpers/schedules";
import { tenantDb } from "../../helpers/shards";
import { staffToken } from "../../helpers/staff";
import { createPolicy, orgPath } from "../../helpers/time-off";

const requests = (p: SchedulePlace) => `${p.base}/shift-requests`;
const MONDAY = { startTime: "2027-03-15T10:00:00Z", endTime: "2027-03-15T14:00:00Z" };
const TUESDAY = { startTime: "2027-03-16T10:00:00Z", endTime: "2027-03-16T14:00:00Z" };

async function colleague(p: SchedulePlace) {
  const staff = await addWorker(p);
  return { id: staff.id, token: await staffToken(p.org, staff.id) };
}

/** The shift_request.cancelled events of the organization: [request id, cancelReason, status as recorded]. */
const cancelledEvents = async (p: SchedulePlace) =>
  (
    (await api("GET", `/api/organizations/${p.org.id}/events?limit=500`, { token: p.org.adminToken })).body as {
      type: string;
      data: { id: string; status: string; cancelReason: string | null };
    }[]
  )
    .filter((e) => e.type === "shift_request.cancelled")
    .map((e) => [e.data.id, e.data.cancelReason, e.data.status]);

/** A published Monday entry of the place's worker, dropped to `taker` and accepted by them. */
async function acceptedDrop(p: SchedulePlace) {
  const taker = await colleague(p);
  const entry = await createEntry(p, MONDAY);
  const created = await api("POST", requests(p), { token: p.token, body: { type: "DROP", scheduleEntryId: entry.id } });
  expect(created.status, created.text).toBe(201);
  const url = `${requests(p)}/${created.body.id}`;
  expect((await api("POST", `${url}/accept`, { token: taker.token })).status).toBe(200);
  return { taker, entry, id: created.body.id as string, url };
}

const read = async (p: SchedulePlace, url: string) => (await api("GET", url, { token: p.org.adminToken })).body;

describe("a shift request is about its entries as they were: a change of one ends it", () => {
  it("a DROP accepted, then the entry moved to another day: CANCELLED (ENTRY_CHANGED) in the move's batch; approve is 409", async () => {
    const p = await createSchedulePlace();
    const { entry, id, url } = await acceptedDrop(p);
    const moved = await api("PATCH", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken, body: TUESDAY });
    expect(moved.status, moved.text).toBe(200);
    expect(await read(p, url)).toMatchObject({ status: "CANCELLED", cancelReason: "ENTRY_CHANGED" });
    expect(await cancelledEvents(p)).toEqual([[id, "ENTRY_CHANGED", "CANCELLED"]]);
    const approve = await api("POST", `${url}/approve`, { token: p.org.adminToken });
    expect(approve.status).toBe(409);
    expect(approve.body.code).toBe("SHIFT_REQUEST_NOT_PENDING");
    // The moved entry stays with its worker; the list agrees with the request.
    expect((await read(p, `${p.base}/schedules/${entry.id}`)).employeeId).toBe(p.staff.id);
    expect(await read(p, `${requests(p)}?status=ACCEPTED`)).toEqual([]);
    expect((await read(p, `${requests(p)}?status=CANCELLED`)).map((r: { id: string }) => r.id)).toEqual([id]);
    // The entry can be requested again, about its new times.
    const again = await api("POST", requests(p), { token: p.token, body: { type: "DROP", scheduleEntryId: entry.id } });
    expect(again.status, again.text).toBe(201);
    expect(again.body).toMatchObject({ status: "PENDING", cancelReason: null, expiresAt: "2027-03-16T14:00:00.000Z" });
  });

  it("an entry moved to start in the past: the request is cancelled, and accept is 409, not 200", async () => {
    const p = await createSchedulePlace();
    const taker = await colleague(p);
    const entry = await createEntry(p, MONDAY);
    const created = await api("POST", requests(p), { token: p.token, body: { type: "DROP", scheduleEntryId: entry.id } });
    const url = `${requests(p)}/${created.body.id}`;
    const moved = await api("PATCH", `${p.base}/schedules/${entry.id}`, {
      token: p.org.adminToken,
      body: { startTime: "2026-01-05T10:00:00Z", endTime: "2026-01-05T14:00:00Z" },
    });
    expect(moved.status, moved.text).toBe(200);
    const accept = await api("POST", `${url}/accept`, { token: taker.token });
    expect(accept.status).toBe(409);
    expect(accept.body.code).toBe("SHIFT_REQUEST_NOT_PENDING");
    expect(await read(p, url)).toMatchObject({ status: "CANCELLED", cancelReason: "ENTRY_CHANGED", acceptedBy: null });
  });

  it("accept and approve check in their own statement that the entries have not started (a start the request did not see)", async () => {
    const p = await createSchedulePlace();
    const taker = await colleague(p);
    const entry = await createEntry(p, MONDAY);
    const created = await api("POST", requests(p), { token: p.token, body: { type: "DROP", scheduleEntryId: entry.id } });
    const url = `${requests(p)}/${created.body.id}`;
    // Straight on D1, as no API write can: the entry starts an hour ago, the request untouched.
    await tenantDb()
      .prepare("UPDATE schedule_entries SET start_at = ? WHERE id = ?")
      .bind(Date.now() - 3_600_000, entry.id)
      .run();
    const accept = await api("POST", `${url}/accept`, { token: taker.token });
    expect(accept.status).toBe(409);
    expect(accept.body).toMatchObject({ code: "SHIFT_REQUEST_NOT_PENDING", detail: expect.stringContaining("started") });
    expect((await read(p, url)).acceptedBy).toBeNull();
    // The same for an approval: the accepted drop of a Tuesday entry that started meanwhile is not given away.
    const tuesday = await createEntry(p, TUESDAY);
    const drop = await api("POST", requests(p), { token: p.token, body: { type: "DROP", scheduleEntryId: tuesday.id } });
    const dropUrl = `${requests(p)}/${drop.body.id}`;
    expect((await api("POST", `${dropUrl}/accept`, { token: taker.token })).status).toBe(200);
    await tenantDb()
      .prepare("UPDATE schedule_entries SET start_at = ? WHERE id = ?")
      .bind(Date.now() - 3_600_000, tuesday.id)
      .run();
    const approve = await api("POST", `${dropUrl}/approve`, { token: p.org.adminToken });
    expect(approve.status).toBe(409);
    expect(approve.body.code).toBe("SHIFT_REQUEST_NOT_PENDING");
    expect((await read(p, `${p.base}/schedules/${tuesday.id}`)).employeeId).toBe(p.staff.id);
  });

  it("a request made while its entry moves is refused by its own insert (400 naming scheduleEntryId), writing nothing", async () => {
    const p = await createSchedulePlace();
    const entry = await createEntry(p, MONDAY);
    const res = await requestWithInterference(
      "POST",
      requests(p),
      { token: p.token, body: { type: "DROP", scheduleEntryId: entry.id } },
      {
        before: /^insert into "shift_requests"/i,
        meanwhile: async () =>
          expect((await api("PATCH", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken, body: TUESDAY })).status).toBe(200),
      },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.errors[0].path).toBe("scheduleEntryId");
    expect(await read(p, requests(p))).toEqual([]);
  });

  it("an entry reassigned to a third worker: CANCELLED (ENTRY_CHANGED), not ACCEPTED forever", async () => {
    const p = await createSchedulePlace();
    const third = await colleague(p);
    const { entry, url } = await acceptedDrop(p);
    await api("PATCH", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken, body: { employeeId: third.id } });
    expect(await read(p, url)).toMatchObject({ status: "CANCELLED", cancelReason: "ENTRY_CHANGED" });
    expect((await api("POST", `${url}/approve`, { token: p.org.adminToken })).body.code).toBe("SHIFT_REQUEST_NOT_PENDING");
  });

  it("an entry deleted: CANCELLED (ENTRY_DELETED) with its event, in the delete's batch", async () => {
    const p = await createSchedulePlace();
    const { entry, id, url } = await acceptedDrop(p);
    const removed = await api("DELETE", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken });
    expect(removed.status, removed.text).toBe(200);
    expect(await read(p, url)).toMatchObject({ status: "CANCELLED", cancelReason: "ENTRY_DELETED" });
    expect(await cancelledEvents(p)).toEqual([[id, "ENTRY_DELETED", "CANCELLED"]]);
    expect((await api("POST", `${url}/approve`, { token: p.org.adminToken })).body.code).toBe("SHIFT_REQUEST_NOT_PENDING");
  });

  it("a change of neither time nor worker (a note, a role) leaves the request as it is; a refused move cancels nothing", async () => {
    const p = await createSchedulePlace();
    const { entry, url } = await acceptedDrop(p);
    const noted = await api("PATCH", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken, body: { note: "Bring keys" } });
    expect(noted.status, noted.text).toBe(200);
    // The same times written again are no change either.
    expect((await api("PATCH", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken, body: MONDAY })).status).toBe(200);
    // A move refused by If-Match writes nothing, the request's end included.
    const stale = await api("PATCH", `${p.base}/schedules/${entry.id}`, {
      token: p.org.adminToken,
      body: TUESDAY,
      headers: { "If-Match": '"1"' },
    });
    expect(stale.status).toBe(412);
    expect(await read(p, url)).toMatchObject({ status: "ACCEPTED", cancelReason: null });
    expect(await cancelledEvents(p)).toEqual([]);
    expect((await api("POST", `${url}/approve`, { token: p.org.adminToken })).status).toBe(200);
  });

  it("a swap whose given-back entry changes is cancelled; it expires at the earlier of its two entries' starts", async () => {
    const p = await createSchedulePlace();
    const other = await colleague(p);
    const mine = await createEntry(p, TUESDAY);
    const theirs = await createEntry(p, { ...MONDAY, employeeId: other.id });
    const created = await api("POST", requests(p), {
      token: p.token,
      body: { type: "SWAP", scheduleEntryId: mine.id, targetEmployeeId: other.id, targetScheduleEntryId: theirs.id },
    });
    expect(created.body.expiresAt).toBe("2027-03-15T14:00:00.000Z");
    const url = `${requests(p)}/${created.body.id}`;
    await api("PATCH", `${p.base}/schedules/${theirs.id}`, {
      token: p.org.adminToken,
      body: { startTime: "2027-03-15T11:00:00Z", endTime: "2027-03-15T14:00:00Z" },
    });
    expect(await read(p, url)).toMatchObject({ status: "CANCELLED", cancelReason: "ENTRY_CHANGED" });
    expect((await api("POST", `${url}/accept`, { token: other.token })).status).toBe(409);
  });

  it("approving one request ends the other live requests naming its entries (ENTRY_CHANGED)", async () => {
    const p = await createSchedulePlace();
    const other = await colleague(p);
    const mine = await createEntry(p, MONDAY);
    const theirs = await createEntry(p, { ...TUESDAY, employeeId: other.id });
    const swap = await api("POST", requests(p), {
      token: p.token,
      body: { type: "SWAP", scheduleEntryId: mine.id, targetEmployeeId: other.id, targetScheduleEntryId: theirs.id },
    });
    // Meanwhile the colleague offers the entry they would give back to anyone.
    const drop = await api("POST", requests(p), { token: other.token, body: { type: "DROP", scheduleEntryId: theirs.id } });
    expect(drop.status, drop.text).toBe(201);
    const swapUrl = `${requests(p)}/${swap.body.id}`;
    expect((await api("POST", `${swapUrl}/accept`, { token: other.token })).status).toBe(200);
    expect((await api("POST", `${swapUrl}/approve`, { token: p.org.adminToken })).status).toBe(200);
    expect((await read(p, `${p.base}/schedules/${theirs.id}`)).employeeId).toBe(p.staff.id);
    expect(await read(p, `${requests(p)}/${drop.body.id}`)).toMatchObject({ status: "CANCELLED", cancelReason: "ENTRY_CHANGED" });
    expect(await read(p, swapUrl)).toMatchObject({ status: "APPROVED", cancelReason: null });
    expect(await cancelledEvents(p)).toEqual([[drop.body.id, "ENTRY_CHANGED", "CANCELLED"]]);
  });

  it("time off approved with cancelConflictingEntries ends the requests on the entries it removes (ENTRY_DELETED)", async () => {
    const p = await createSchedulePlace("UTC");
    const taker = await colleague(p);
    const entry = await createEntry(p, { startTime: "2027-06-01T09:00:00Z", endTime: "2027-06-01T17:00:00Z" });
    const created = await api("POST", requests(p), { token: p.token, body: { type: "DROP", scheduleEntryId: entry.id } });
    const url = `${requests(p)}/${created.body.id}`;
    expect((await api("POST", `${url}/accept`, { token: taker.token })).status).toBe(200);
    const policy = await createPolicy(p.org, { requiresApproval: true, allowNegativeBalance: true });
    const timeOff = await api("POST", orgPath(p.org, "/time-off-requests"), {
      token: p.token,
      body: { policyId: policy.id, startTime: "2027-06-01T08:00:00Z", endTime: "2027-06-01T12:00:00Z" },
    });
    expect(timeOff.status, timeOff.text).toBe(201);
    const approved = await api("POST", orgPath(p.org, `/time-off-requests/${timeOff.body.id}/approve`), {
      token: p.org.adminToken,
      body: { cancelConflictingEntries: true },
    });
    expect(approved.status, approved.text).toBe(200);
    expect(await read(p, url)).toMatchObject({ status: "CANCELLED", cancelReason: "ENTRY_DELETED" });
    expect(await cancelledEvents(p)).toEqual([[created.body.id, "ENTRY_DELETED", "CANCELLED"]]);
  });

  it("cancel says who: REQUESTER_CANCELLED by the requester, MANAGER_CANCELLED by a manager", async () => {
    const p = await createSchedulePlace();
    const first = await createEntry(p, MONDAY);
    const second = await createEntry(p, TUESDAY);
    const post = (entryId: string) => api("POST", requests(p), { token: p.token, body: { type: "DROP", scheduleEntryId: entryId } });
    const [a, b] = [await post(first.id), await post(second.id)];
    const mine = await api("POST", `${requests(p)}/${a.body.id}/cancel`, { token: p.token });
    expect(mine.body).toMatchObject({ status: "CANCELLED", cancelReason: "REQUESTER_CANCELLED" });
    const managers = await api("POST", `${requests(p)}/${b.body.id}/cancel`, { token: p.org.adminToken });
    expect(managers.body).toMatchObject({ status: "CANCELLED", cancelReason: "MANAGER_CANCELLED" });
  });
});
