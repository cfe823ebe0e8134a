import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { allPages } from "../../helpers/pages";
import { addWorker, createEntry, createSchedulePlace, type SchedulePlace } from "../../helpers/schedules";
import { tenantDb } from "../../helpers/shards";
import { staffToken } from "../../helpers/staff";

const requests = (p: SchedulePlace) => `${p.base}/shift-requests`;
const MONDAY = { startTime: "2027-03-15T10:00:00Z", endTime: "2027-03-15T14:00:00Z" };
const feed = async (p: SchedulePlace) =>
  ((await api("GET", `/api/organizations/${p.org.id}/events?limit=500`, { token: p.org.adminToken })).body as { type: string }[])
    .map((e) => e.type)
    .filter((t) => t.startsWith("shift_request.") || t === "schedule_entry.updated");

async function colleague(p: SchedulePlace) {
  const staff = await addWorker(p);
  return { id: staff.id, token: await staffToken(p.org, staff.id) };
}

describe("shift requests", () => {
  it("an open drop: requested by the worker, accepted by a colleague, approved by a manager — the entry changes hands", async () => {
    const p = await createSchedulePlace();
    const taker = await colleague(p);
    const entry = await createEntry(p, MONDAY);
    const created = await api("POST", requests(p), { token: p.token, body: { type: "DROP", scheduleEntryId: entry.id, note: "Exam" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: "DROP",
      status: "PENDING",
      scheduleEntryId: entry.id,
      requesterId: p.staff.id,
      targetEmployeeId: null,
      expiresAt: "2027-03-15T14:00:00.000Z",
    });
    const url = `${requests(p)}/${created.body.id}`;
    expect((await api("POST", `${url}/accept`, { token: p.token })).status).toBe(403);
    expect((await api("POST", `${url}/approve`, { token: p.org.adminToken })).body.code).toBe("SHIFT_REQUEST_NOT_PENDING");
    const accepted = await api("POST", `${url}/accept`, { token: taker.token });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: "ACCEPTED", acceptedBy: taker.id });
    expect((await api("POST", `${url}/approve`, { token: taker.token })).status).toBe(403);
    const approved = await api("POST", `${url}/approve`, { token: p.org.adminToken });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "APPROVED", decidedBy: "partner:dev-partner" });
    const after = await api("GET", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken });
    expect(after.body.employeeId).toBe(taker.id);
    expect(await feed(p)).toEqual(["shift_request.created", "shift_request.accepted", "shift_request.approved", "schedule_entry.updated"]);
  });

  it("two colleagues accepting one drop at once: one 200, the other 409 SHIFT_REQUEST_NOT_PENDING", async () => {
    const p = await createSchedulePlace();
    const [a, b] = [await colleague(p), await colleague(p)];
    const entry = await createEntry(p, MONDAY);
    const created = await api("POST", requests(p), { token: p.token, body: { type: "DROP", scheduleEntryId: entry.id } });
    const url = `${requests(p)}/${created.body.id}/accept`;
    const results = await Promise.all([api("POST", url, { token: a.token }), api("POST", url, { token: b.token })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe("SHIFT_REQUEST_NOT_PENDING");
    expect((await feed(p)).filter((t) => t === "shift_request.accepted")).toHaveLength(1);
  });

  it("a swap trades both entries in one batch, re-checking availability of each side", async () => {
    const p = await createSchedulePlace();
    const other = await colleague(p);
    const mine = await createEntry(p, MONDAY);
    const theirs = await createEntry(p, { employeeId: other.id, startTime: "2027-03-16T10:00:00Z", endTime: "2027-03-16T14:00:00Z" });
    const swap = { type: "SWAP", scheduleEntryId: mine.id, targetEmployeeId: other.id, targetScheduleEntryId: theirs.id };
    const created = await api("POST", requests(p), { token: p.token, body: swap });
    expect(created.status).toBe(201);
    expect((await api("POST", requests(p), { token: p.token, body: swap })).body.code).toBe("SHIFT_REQUEST_EXISTS");
    const url = `${requests(p)}/${created.body.id}`;
    expect((await api("POST", `${url}/accept`, { token: other.token })).status).toBe(200);
    // The requester becomes unavailable on Tuesdays before the approval: the swap is refused and nothing moves.
    await api("POST", `/api/organizations/${p.org.id}/staffmembers/${p.staff.id}/availability`, {
      token: p.org.adminToken,
      body: { type: "UNAVAILABLE", startTime: "2027-03-16T08:00:00Z", endTime: "2027-03-16T18:00:00Z", timezone: "America/New_York" },
    });
    const refused = await api("POST", `${url}/approve`, { token: p.org.adminToken });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("WORKER_UNAVAILABLE");
    expect((await api("GET", url, { token: p.org.adminToken })).body.status).toBe("ACCEPTED");
    expect((await api("GET", `${p.base}/schedules/${mine.id}`, { token: p.org.adminToken })).body.employeeId).toBe(p.staff.id);
    const declined = await api("POST", `${url}/decline`, { token: p.org.adminToken });
    expect(declined.body.status).toBe("DECLINED");
    expect((await api("POST", `${url}/cancel`, { token: p.token })).body.code).toBe("SHIFT_REQUEST_NOT_PENDING");
  });

  it("a swap of two entries at the same time trades them (neither side overlaps the entry it gives away)", async () => {
    const p = await createSchedulePlace();
    const other = await colleague(p);
    const mine = await createEntry(p, MONDAY);
    const theirs = await createEntry(p, { ...MONDAY, employeeId: other.id });
    const created = await api("POST", requests(p), {
      token: p.token,
      body: { type: "SWAP", scheduleEntryId: mine.id, targetEmployeeId: other.id, targetScheduleEntryId: theirs.id },
    });
    const url = `${requests(p)}/${created.body.id}`;
    expect((await api("POST", `${url}/accept`, { token: other.token })).status).toBe(200);
    const approved = await api("POST", `${url}/approve`, { token: p.org.adminToken });
    expect(approved.status).toBe(200);
    expect((await api("GET", `${p.base}/schedules/${mine.id}`, { token: p.org.adminToken })).body.employeeId).toBe(other.id);
    expect((await api("GET", `${p.base}/schedules/${theirs.id}`, { token: p.org.adminToken })).body.employeeId).toBe(p.staff.id);
  });

  it("an approval whose entry was given to someone else meanwhile writes nothing (409): the reassignment ended the request", async () => {
    const p = await createSchedulePlace();
    const [taker, third] = [await colleague(p), await colleague(p)];
    const entry = await createEntry(p, MONDAY);
    const created = await api("POST", requests(p), { token: p.token, body: { type: "DROP", scheduleEntryId: entry.id } });
    const url = `${requests(p)}/${created.body.id}`;
    await api("POST", `${url}/accept`, { token: taker.token });
    await api("PATCH", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken, body: { employeeId: third.id } });
    const refused = await api("POST", `${url}/approve`, { token: p.org.adminToken });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("SHIFT_REQUEST_NOT_PENDING");
    expect((await api("GET", url, { token: p.org.adminToken })).body).toMatchObject({ status: "CANCELLED", cancelReason: "ENTRY_CHANGED" });
    expect((await api("GET", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken })).body.employeeId).toBe(third.id);
  });

  it("refuses drafts, started entries, another worker's entry, unknown targets; staff see only what concerns them", async () => {
    const p = await createSchedulePlace();
    const other = await colleague(p);
    const bystander = await colleague(p);
    const draft = await createEntry(p, MONDAY, true);
    const past = await createEntry(p, { startTime: "2026-01-05T10:00:00Z", endTime: "2026-01-05T12:00:00Z" });
    const entry = await createEntry(p, { startTime: "2027-03-17T10:00:00Z", endTime: "2027-03-17T14:00:00Z" });
    const post = (body: Record<string, unknown>, token = p.token) => api("POST", requests(p), { token, body });
    expect((await post({ type: "DROP", scheduleEntryId: draft.id })).body.errors[0].path).toBe("scheduleEntryId");
    expect((await post({ type: "DROP", scheduleEntryId: past.id })).body.errors[0].path).toBe("scheduleEntryId");
    expect((await post({ type: "SWAP", scheduleEntryId: entry.id })).body.errors[0].path).toBe("targetEmployeeId");
    expect((await post({ type: "SWAP", scheduleEntryId: entry.id, targetEmployeeId: "nope" })).body.errors[0].path).toBe(
      "targetEmployeeId",
    );
    expect((await post({ type: "DROP", scheduleEntryId: entry.id }, other.token)).status).toBe(403);
    const swap = await post({ type: "SWAP", scheduleEntryId: entry.id, targetEmployeeId: other.id });
    expect(swap.status).toBe(201);
    const url = `${requests(p)}/${swap.body.id}`;
    expect((await api("GET", url, { token: bystander.token })).status).toBe(404);
    expect((await api("POST", `${url}/accept`, { token: bystander.token })).status).toBe(404);
    expect((await api("GET", requests(p), { token: bystander.token })).body).toEqual([]);
    expect((await api("GET", requests(p), { token: other.token })).body.map((r: { id: string }) => r.id)).toEqual([swap.body.id]);
    expect((await api("GET", `${requests(p)}?status=PENDING`, { token: p.org.adminToken })).body).toHaveLength(1);
    expect((await api("GET", `${requests(p)}?status=APPROVED`, { token: p.org.adminToken })).body).toEqual([]);
    const cancelled = await api("POST", `${url}/cancel`, { token: p.token });
    expect(cancelled.body.status).toBe("CANCELLED");
    const elsewhere = await createSchedulePlace();
    expect((await api("GET", url, { token: elsewhere.org.adminToken })).status).toBe(404);
  });

  it("pages newest first with limit, cursor and Link; the status filter (EXPIRED as read) holds on every page", async () => {
    const p = await createSchedulePlace();
    const made: string[] = [];
    for (const day of [15, 16, 17, 18, 19]) {
      const entry = await createEntry(p, { startTime: `2027-03-${day}T10:00:00Z`, endTime: `2027-03-${day}T14:00:00Z` });
      const res = await api("POST", requests(p), { token: p.token, body: { type: "DROP", scheduleEntryId: entry.id } });
      expect(res.status).toBe(201);
      made.push(res.body.id);
    }
    const [cancelled, expired] = [made[1]!, made[3]!];
    expect((await api("POST", `${requests(p)}/${cancelled}/cancel`, { token: p.token })).status).toBe(200);
    // A request whose entry has started reads EXPIRED (its expiry moved to the past here, as time passing would).
    await tenantDb()
      .prepare("UPDATE shift_requests SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 60_000, expired)
      .run();
    const newestFirst = [...made].reverse();
    const first = await api("GET", `${requests(p)}?limit=2`, { token: p.org.adminToken });
    expect(first.body.map((r: { id: string }) => r.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.headers.get("Link")).toMatch(/^<\/api\/organizations\/[^>]+cursor=[^>]+>; rel="next"$/);
    const ids = async (query: string, limit: number) =>
      (await allPages(`${requests(p)}?limit=${limit}${query}`, p.org.adminToken, limit)).flat().map((r: { id: string }) => r.id);
    expect(await ids("", 2)).toEqual(newestFirst);
    expect(await ids("&status=PENDING", 1)).toEqual(newestFirst.filter((id) => id !== cancelled && id !== expired));
    expect(await ids("&status=EXPIRED", 1)).toEqual([expired]);
    expect(await ids("&status=CANCELLED", 1)).toEqual([cancelled]);
    // The worker pages what they may see.
    expect((await allPages(`${requests(p)}?limit=2`, p.token, 2)).flat()).toHaveLength(5);
  });

  it("answers past the 500th request: none is cut off", async () => {
    const p = await createSchedulePlace();
    const entry = await createEntry(p, MONDAY);
    // 501 decided requests of one entry (only live ones are one an entry), created a millisecond apart.
    await tenantDb()
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 501)
         INSERT INTO shift_requests (id, organization_id, location_id, type, status, schedule_entry_id, requester_id, expires_at, created_at, updated_at)
         SELECT printf('req-%04d', i), ?, ?, 'DROP', 'CANCELLED', ?, ?, ?, 1700000000000 + i, 1700000000000 + i FROM n`,
      )
      .bind(p.org.id, p.location.id, entry.id, p.staff.id, Date.parse(MONDAY.startTime))
      .run();
    const pages = await allPages(`${requests(p)}?limit=500`, p.org.adminToken, 500);
    expect(pages.map((page) => page.length)).toEqual([500, 1]);
    expect(pages[1]![0].id).toBe("req-0001");
  });
});
