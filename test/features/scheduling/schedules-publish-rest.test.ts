import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { snapshot, changes as tableChanges } from "../../helpers/db-snapshot";
import { addWorker, createEntry, createSchedulePlace, type SchedulePlace } from "../../helpers/schedules";
import { staffToken } from "../../helpers/staff";

const DAY = 86_400_000;
/** A wall-clock time `days` from now at a UTC location, on the hour. */
const at = (days: number, hour: number) => {
  const d = new Date(Date.now() + days * DAY);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString().replace(".000Z", "Z");
};
const dateOf = (time: string) => time.slice(0, 10);

async function placeWithPack(rulePack: string): Promise<SchedulePlace> {
  const p = await createSchedulePlace("UTC");
  const res = await api("PUT", `${p.base}/fair-workweek`, { token: p.org.adminToken, body: { rulePack } });
  expect(res.status).toBe(200);
  return p;
}

const publish = (p: SchedulePlace, dryRun = false) =>
  api("POST", `${p.base}/schedules/publish`, {
    token: p.org.adminToken,
    body: { startDate: dateOf(at(1, 0)), endDate: dateOf(at(10, 0)), ...(dryRun ? { dryRun } : {}) },
  });

const consent = (p: SchedulePlace, scheduleEntryId?: string) =>
  api("POST", `/api/organizations/${p.org.id}/staffmembers/${p.staff.id}/consents`, {
    token: p.token,
    body: { kind: "REST", ...(scheduleEntryId ? { scheduleEntryId } : {}) },
  });

describe("publish and rest between shifts (NYC: 11 h, consent required)", () => {
  it("a draft inside the rest window is 409 REST_CONSENT_REQUIRED, nothing published, until the worker consents for it", async () => {
    const p = await placeWithPack("NYC_FAST_FOOD");
    await createEntry(p, { startTime: at(5, 14), endTime: at(5, 23) });
    // Another draft, clear of any rest window: the refusal holds it back too (one atomic batch).
    const clear = await createEntry(p, { startTime: at(8, 10), endTime: at(8, 14) }, true);
    const opening = await createEntry(p, { startTime: at(6, 6), endTime: at(6, 12) }, true);
    const before = await snapshot();
    const dryRun = await publish(p, true);
    expect(dryRun.status, dryRun.text).toBe(200);
    expect(dryRun.body.restConsentRequired).toEqual([opening.id]);
    const refused = await publish(p);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.code).toBe("REST_CONSENT_REQUIRED");
    expect(tableChanges(before, await snapshot())).toEqual([]);
    // A consent for another entry does not clear it.
    expect((await consent(p, clear.id)).status).toBe(201);
    expect((await publish(p)).body.code).toBe("REST_CONSENT_REQUIRED");
    expect((await consent(p, opening.id)).status).toBe(201);
    expect((await publish(p, true)).body.restConsentRequired).toEqual([]);
    const published = await publish(p);
    expect(published.status, published.text).toBe(200);
    expect(published.body.publishedEntries).toBe(2);
    for (const id of [clear.id, opening.id]) {
      expect((await api("GET", `${p.base}/schedules/${id}`, { token: p.org.adminToken })).status).toBe(200);
    }
  });

  it("a general REST consent of the worker (no scheduleEntryId) clears it, as create and PATCH take one named by consentId", async () => {
    const p = await placeWithPack("NYC_FAST_FOOD");
    await createEntry(p, { startTime: at(5, 14), endTime: at(5, 23) });
    const opening = await createEntry(p, { startTime: at(6, 6), endTime: at(6, 12) }, true);
    expect((await publish(p)).body.code).toBe("REST_CONSENT_REQUIRED");
    // Another worker's general consent does not count.
    const other = await addWorker(p);
    const theirs = await api("POST", `/api/organizations/${p.org.id}/staffmembers/${other.id}/consents`, {
      token: await staffToken(p.org, other.id),
      body: { kind: "REST" },
    });
    expect(theirs.status).toBe(201);
    expect((await publish(p, true)).body.restConsentRequired).toEqual([opening.id]);
    const general = await consent(p);
    expect(general.status).toBe(201);
    expect(general.body.scheduleEntryId).toBeNull();
    // The same consent clears a create naming it (consentId) and the publish: the dry run says so, the publish does.
    const named = await api("POST", `${p.base}/schedules/drafts`, {
      token: p.org.adminToken,
      body: { employeeId: p.staff.id, roleId: p.roleId, startTime: at(7, 6), endTime: at(7, 8), consentId: general.body.id },
    });
    expect(named.status, named.text).toBe(201);
    expect((await publish(p, true)).body.restConsentRequired).toEqual([]);
    const published = await publish(p);
    expect(published.status, published.text).toBe(200);
    expect(published.body.publishedEntries).toBe(2);
  });

  it("a draft closing shift before the worker's opening one is refused too (the window after the draft)", async () => {
    const p = await placeWithPack("NYC_FAST_FOOD");
    await createEntry(p, { startTime: at(6, 6), endTime: at(6, 12) });
    const closing = await createEntry(p, { startTime: at(5, 14), endTime: at(5, 23) }, true);
    expect((await publish(p, true)).body.restConsentRequired).toEqual([closing.id]);
    const before = await snapshot();
    const refused = await publish(p);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.code).toBe("REST_CONSENT_REQUIRED");
    expect(tableChanges(before, await snapshot())).toEqual([]);
  });

  it("an entry as long as an entry may be (24 h) ending inside the window is seen; one on the same day is not rest (NYC)", async () => {
    const p = await placeWithPack("NYC_FAST_FOOD");
    // 22:00 on day 4 to 22:00 on day 5: its start is 32 h before the draft's, its end 8 h before.
    await createEntry(p, { startTime: at(4, 22), endTime: at(5, 22) });
    const opening = await createEntry(p, { startTime: at(6, 6), endTime: at(6, 12) }, true);
    // A split shift on one day is no closing-then-opening: 4 h apart, same local date.
    await createEntry(p, { startTime: at(8, 6), endTime: at(8, 10) });
    const split = await createEntry(p, { startTime: at(8, 14), endTime: at(8, 20) }, true);
    expect((await publish(p, true)).body.restConsentRequired).toEqual([opening.id]);
    expect((await publish(p)).body.code).toBe("REST_CONSENT_REQUIRED");
    expect((await consent(p, opening.id)).status).toBe(201);
    const published = await publish(p);
    expect(published.status, published.text).toBe(200);
    expect(published.body.publishedEntries).toBe(2);
    expect((await api("GET", `${p.base}/schedules/${split.id}`, { token: p.org.adminToken })).status).toBe(200);
  });

  it("a pack whose rest needs no consent (Seattle) publishes the same drafts", async () => {
    const p = await placeWithPack("SEATTLE");
    await createEntry(p, { startTime: at(5, 14), endTime: at(5, 23) });
    await createEntry(p, { startTime: at(6, 6), endTime: at(6, 12) }, true);
    expect((await publish(p, true)).body.restConsentRequired).toEqual([]);
    const res = await publish(p);
    expect(res.status, res.text).toBe(200);
    expect(res.body.publishedEntries).toBe(1);
  });
});

describe("a published bulk copy under a pack (asDrafts: false) is a schedule change", () => {
  const copy = (p: SchedulePlace, from: string, to: string, asDrafts = false) =>
    api("POST", `${p.base}/schedules/bulk-copy`, {
      token: p.org.adminToken,
      body: { fromStartDate: from, fromEndDate: from, toStartDate: to, asDrafts },
    });

  it("each copy inside the notice window is ADDED and earns its premium (NYC: under 7 days, $15); drafts record nothing", async () => {
    const p = await placeWithPack("NYC_FAST_FOOD");
    await createEntry(p, { startTime: at(2, 9), endTime: at(2, 17) }, true);
    const drafts = await copy(p, dateOf(at(2, 0)), dateOf(at(3, 0)), true);
    expect(drafts.status, drafts.text).toBe(200);
    const published = await copy(p, dateOf(at(2, 0)), dateOf(at(4, 0)));
    expect(published.status, published.text).toBe(200);
    expect(published.body.created).toEqual([expect.objectContaining({ isDraft: false })]);
    const listed = await api(
      "GET",
      `/api/organizations/${p.org.id}/schedule-changes?startDate=${dateOf(at(0, 0))}&endDate=${dateOf(at(10, 0))}`,
      { token: p.org.adminToken },
    );
    expect(listed.body).toEqual([
      expect.objectContaining({
        scheduleEntryId: published.body.created[0].id,
        kind: "ADDED",
        entryDate: dateOf(at(4, 0)),
        premium: expect.objectContaining({ amount: 15 }),
      }),
    ]);
    const events = (await api("GET", `/api/organizations/${p.org.id}/events?limit=500`, { token: p.org.adminToken })).body as {
      type: string;
      data: Record<string, unknown>;
    }[];
    expect(events.filter((e) => e.type === "schedule_change.recorded").map((e) => e.data.scheduleEntryId)).toEqual([
      published.body.created[0].id,
    ]);
  });

  it("a copy inside the rest window is 409 REST_CONSENT_REQUIRED, nothing copied, until the worker's standing consent", async () => {
    const p = await placeWithPack("NYC_FAST_FOOD");
    await createEntry(p, { startTime: at(5, 14), endTime: at(5, 23) });
    await createEntry(p, { startTime: at(4, 6), endTime: at(4, 12) }, true);
    const before = await snapshot();
    const refused = await copy(p, dateOf(at(4, 0)), dateOf(at(6, 0)));
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.code).toBe("REST_CONSENT_REQUIRED");
    expect(tableChanges(before, await snapshot())).toEqual([]);
    // As drafts, the copy is made: the publish judges it.
    const asDrafts = await copy(p, dateOf(at(4, 0)), dateOf(at(6, 0)), true);
    expect(asDrafts.body.created).toEqual([expect.objectContaining({ isDraft: true })]);
    expect((await api("DELETE", `${p.base}/schedules/drafts/${asDrafts.body.created[0].id}`, { token: p.org.adminToken })).status).toBe(
      200,
    );
    const general = await consent(p);
    expect(general.status).toBe(201);
    const copied = await copy(p, dateOf(at(4, 0)), dateOf(at(6, 0)));
    expect(copied.status, copied.text).toBe(200);
    expect(copied.body.created).toEqual([expect.objectContaining({ isDraft: false, startTime: `${dateOf(at(6, 0))}T06:00:00.000Z` })]);
  });
});
