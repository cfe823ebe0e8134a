import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { purgeExpiredEvents } from "@/data/outbox/outbox";
import { api } from "../helpers/api";
import { createOrganization, type OrganizationFixture, unique } from "../helpers/fixtures";
import { createLocation, sampleLocation } from "../helpers/locations";
import { recordingRequest } from "../helpers/recording-d1";
import { tenantDb } from "../helpers/shards";
import { createStaffMember, staffToken } from "../helpers/staff";
import { createManual, lockDay, manualShift, unlockDay } from "../helpers/timesheets";
import { clockIn, createBreakType, createWorkplace, HERE, punch, type Workplace } from "../helpers/workplace";

const DAY = { startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T17:00:00Z" };

const feedPath = (org: OrganizationFixture, query = "") => `/api/organizations/${org.id}/events${query}`;

/** The organization's whole feed, following Link rel=next. */
async function feed(org: OrganizationFixture, query = "?limit=500") {
  const all: any[] = [];
  let path: string | undefined = feedPath(org, query);
  while (path) {
    const res = await api("GET", path, { token: org.adminToken });
    expect(res.status, res.text).toBe(200);
    all.push(...res.body);
    path = res.headers.get("Link")?.match(/^<([^>]+)>; rel="next"$/)?.[1];
  }
  return all;
}

const lastEvent = async (org: OrganizationFixture) => (await feed(org)).at(-1);

const sequencesAreGapless = (events: { sequence: number }[]) => expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));

describe("events written with their change", () => {
  it("clock-in, break start and end, clock-out each record their event, data = the punch's answer", async () => {
    const w = await createWorkplace();
    const type = await createBreakType(w, { name: "Coffee", paid: true, durationMinutes: 10 });
    const answers = [
      await clockIn(w),
      await punch(w, "break-start", { typeId: type.id }),
      await punch(w, "break-end"),
      await punch(w, "clock-out"),
    ];
    for (const a of answers) expect(a.status, a.text).toBe(200);
    const events = (await feed(w.org)).filter((e) => e.type.startsWith("shift."));
    expect(events.map((e) => e.type)).toEqual(["shift.clocked_in", "shift.break_started", "shift.break_ended", "shift.clocked_out"]);
    expect(events.map((e) => e.data)).toEqual(answers.map((a) => a.body));
    expect(events[0]).toMatchObject({ organizationId: w.org.id });
    expect(events[0].id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("manual shifts record shift.created, shift.updated and shift.deleted with the answers", async () => {
    const w = await createWorkplace();
    const created = await createManual(w, DAY);
    const patched = await api("PATCH", `/api/timesheets/${created.id}`, {
      token: w.org.adminToken,
      body: { endTime: "2026-03-14T18:00:00Z" },
    });
    const deleted = await api("DELETE", `/api/timesheets/${created.id}`, { token: w.org.adminToken });
    expect([patched.status, deleted.status]).toEqual([200, 200]);
    const events = (await feed(w.org)).filter((e) => e.type.startsWith("shift."));
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["shift.created", created],
      ["shift.updated", patched.body],
      ["shift.deleted", deleted.body],
    ]);
  });

  it("DELETE /timesheets?date&locationId records shift.deleted for each shift of the day, as GET answered it deleted", async () => {
    const w = await createWorkplace();
    const one = await createManual(w, DAY);
    const two = await createManual(w, { startTime: "2026-03-14T18:00:00Z", endTime: "2026-03-14T20:00:00Z" });
    const res = await api("DELETE", `/api/timesheets?date=2026-03-14&locationId=${w.location.id}`, { token: w.org.adminToken });
    expect(res.status, res.text).toBe(200);
    const deleted = (await feed(w.org)).filter((e) => e.type === "shift.deleted");
    expect(deleted.map((e) => e.data.id).sort()).toEqual([one.id, two.id].sort());
    const first = deleted.find((e) => e.data.id === one.id);
    expect(first.data).toMatchObject({ ...one, active: false, deletedAt: first.occurredAt, updatedAt: first.occurredAt });
  });

  it("locking a day records timesheet.day_locked once; unlocking records day_unlocked once", async () => {
    const w = await createWorkplace();
    const locked = await lockDay(w, "2026-03-14");
    expect((await lockDay(w, "2026-03-14")).status).toBe(200);
    const unlocked = await unlockDay(w, "2026-03-14");
    expect((await unlockDay(w, "2026-03-14")).status).toBe(200);
    const events = (await feed(w.org)).filter((e) => e.type.startsWith("timesheet."));
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["timesheet.day_locked", locked.body],
      ["timesheet.day_unlocked", unlocked.body],
    ]);
  });

  it("staff members and locations record created, updated and deleted with the resource as the API answers it", async () => {
    const org = await createOrganization();
    const location = await api("POST", `/api/organizations/${org.id}/locations`, { token: org.adminToken, body: sampleLocation() });
    const locationPatched = await api("PATCH", `/api/organizations/${org.id}/locations/${location.body.id}`, {
      token: org.adminToken,
      body: { name: "Renamed" },
    });
    const member = await createStaffMember(org, { locationIds: [location.body.id] });
    const memberPatched = await api("PATCH", `/api/organizations/${org.id}/staffmembers/${member.id}`, {
      token: org.adminToken,
      body: { name: "New name" },
    });
    const memberDeleted = await api("DELETE", `/api/organizations/${org.id}/staffmembers/${member.id}`, { token: org.adminToken });
    const locationDeleted = await api("DELETE", `/api/organizations/${org.id}/locations/${location.body.id}`, { token: org.adminToken });
    const events = await feed(org);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["location.created", location.body],
      ["location.updated", locationPatched.body],
      ["staff_member.created", member],
      ["staff_member.updated", memberPatched.body],
      ["staff_member.deleted", memberDeleted.body],
      ["location.deleted", locationDeleted.body],
    ]);
    sequencesAreGapless(events);
  });
});

describe("sync records one event per changed record", () => {
  it("POST /locations/sync: created, updated and deleted per record; an identical record records nothing", async () => {
    const org = await createOrganization();
    const loc = (externalId: string, name = `Store ${externalId}`) => ({ ...sampleLocation(), externalId, name });
    const sync = (body: unknown) => api("POST", `/api/organizations/${org.id}/locations/sync`, { token: org.adminToken, body });
    const first = await sync({ records: [loc("a"), loc("b"), loc("c")] });
    expect(first.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await sync({ records: [loc("a"), loc("b", "Renamed"), loc("d")], deactivateMissing: true });
    expect(second.body).toMatchObject({ created: 1, updated: 1, deactivated: 1 });
    const events = await feed(org);
    sequencesAreGapless(events);
    const summary = events.map((e) => [e.type, e.data.externalId, e.data.name]);
    expect(summary.slice(0, 3).sort()).toEqual([
      ["location.created", "a", "Store a"],
      ["location.created", "b", "Store b"],
      ["location.created", "c", "Store c"],
    ]);
    expect(summary.slice(3).sort()).toEqual([
      ["location.created", "d", "Store d"],
      ["location.deleted", "c", "Store c"],
      ["location.updated", "b", "Renamed"],
    ]);
    const stored = await api("GET", `/api/organizations/${org.id}/locations/${second.body.records[1].id}`, { token: org.adminToken });
    expect(events.find((e) => e.type === "location.updated").data).toEqual(stored.body);
  });

  it("POST /staffmembers/sync records staff_member events for 150 records in one batch (one statement)", async () => {
    const org = await createOrganization();
    const records = Array.from({ length: 150 }, (_, i) => ({ externalId: `e-${i}`, name: `Staff ${i}` }));
    const res = await api("POST", `/api/organizations/${org.id}/staffmembers/sync`, { token: org.adminToken, body: { records } });
    expect(res.status, res.text).toBe(200);
    const events = await feed(org, "?limit=60");
    expect(events).toHaveLength(150);
    sequencesAreGapless(events);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(["staff_member.created"]));
    expect(new Set(events.map((e) => e.data.externalId))).toEqual(new Set(records.map((r) => r.externalId)));
  });
});

describe("cost", () => {
  it("a punch's event rides in its write batch: clock-in, break, clock-out stay at two D1 round trips", async () => {
    const w = await createWorkplace();
    const type = await createBreakType(w, { name: "Coffee", paid: true, durationMinutes: 10 });
    const figures: string[] = [];
    for (const [action, body] of [
      ["clock-in", { roleId: w.roleId }],
      ["break-start", { typeId: type.id }],
      ["break-end", {}],
      ["clock-out", {}],
    ] as const) {
      const res = await recordingRequest("POST", `${w.punchPath}/${action}`, { token: w.token, body: { ...HERE, ...body } });
      expect(res.status).toBe(200);
      expect(res.trips).toHaveLength(2);
      // A clock-in with no published entry also raises UNSCHEDULED_SHIFT, whose event rides in the same batch.
      const events = action === "clock-in" ? 2 : 1;
      expect(res.trips[1]!.filter((statement) => /insert into "events"/i.test(statement))).toHaveLength(events);
      figures.push(`${action}: ${res.trips.length} round trips (${res.trips.map((t) => t.length).join(" + ")} statements)`);
    }
    console.log(`D1 per punch with its event: ${figures.join("; ")}`);
  });
});

describe("a refused change records no event", () => {
  it("a second clock-in refused by the one-open-shift guard, a manual shift on a locked day, a stale If-Match", async () => {
    const w = await createWorkplace();
    expect((await clockIn(w)).status).toBe(200);
    const before = await feed(w.org);
    expect((await clockIn(w)).status).toBe(409);
    await lockDay(w, "2026-03-14");
    const afterLock = await feed(w.org);
    expect(afterLock.length).toBe(before.length + 1);
    expect((await manualShift(w, DAY)).status).toBe(409);
    const stale = await api("PATCH", `/api/organizations/${w.org.id}/locations/${w.location.id}`, {
      token: w.org.adminToken,
      body: { name: "Stale" },
      headers: { "If-Match": '"1"' },
    });
    expect(stale.status).toBe(412);
    expect(await feed(w.org)).toEqual(afterLock);
  });

  it("a write by a revoked token records nothing", async () => {
    const w = await createWorkplace();
    const before = await feed(w.org);
    await api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, { token: w.org.adminToken, body: { active: false } });
    const refused = await clockIn(w);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("STAFF_MEMBER_INACTIVE");
    const after = await feed(w.org);
    expect(after.length).toBe(before.length + 1);
    expect(after.at(-1).type).toBe("staff_member.updated");
  });
});

describe("GET /api/organizations/{organization_id}/events", () => {
  it("pages in sequence order with Link rel=next and after=, filters by types", async () => {
    const org = await createOrganization();
    for (let i = 0; i < 5; i++) await createLocation(org);
    const first = await api("GET", feedPath(org, "?limit=2"), { token: org.adminToken });
    expect(first.status).toBe(200);
    expect(first.body.map((e: any) => e.sequence)).toEqual([1, 2]);
    expect(first.headers.get("Link")).toBe(`</api/organizations/${org.id}/events?limit=2&after=2>; rel="next"`);
    const later = await api("GET", feedPath(org, "?after=4"), { token: org.adminToken });
    expect(later.body.map((e: any) => e.sequence)).toEqual([5]);
    expect(later.headers.get("Link")).toBeNull();
    expect((await feed(org, "?limit=2")).length).toBe(5);
    await createStaffMember(org);
    const onlyStaff = await api("GET", feedPath(org, "?types=staff_member.created,shift.clocked_in"), { token: org.adminToken });
    expect(onlyStaff.body.map((e: any) => [e.type, e.sequence])).toEqual([["staff_member.created", 6]]);
  });

  it("has no gaps and no doubles under concurrent writers", async () => {
    const org = await createOrganization();
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 2
          ? api("POST", `/api/organizations/${org.id}/locations`, { token: org.adminToken, body: sampleLocation() })
          : api("POST", `/api/organizations/${org.id}/staffmembers`, { token: org.adminToken, body: { name: unique("Staff") } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
    const events = await feed(org, "?limit=7");
    sequencesAreGapless(events);
    expect(new Set(events.map((e) => e.data.id))).toEqual(new Set(results.map((r) => r.body.id)));
  });

  it("answers 400 to a bad after, types or limit", async () => {
    const org = await createOrganization();
    for (const query of ["?after=-1", "?after=1e3", "?types=shift.exploded", "?types=", "?limit=0"]) {
      const res = await api("GET", feedPath(org, query), { token: org.adminToken });
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe("VALIDATION_FAILED");
    }
  });

  it("needs ORGANIZATION_ADMIN (a Manager is 403) and the token's organization (another one is 404)", async () => {
    const w: Workplace = await createWorkplace();
    const manager = await createStaffMember(w.org, { accessRoleName: "Manager" });
    const res = await api("GET", feedPath(w.org), { token: await staffToken(w.org, manager.id) });
    expect(res.status).toBe(403);
    const other = await createOrganization();
    const cross = await api("GET", feedPath(other), { token: w.org.adminToken });
    expect(cross.status).toBe(404);
    expect((await api("GET", feedPath(w.org))).status).toBe(401);
  });
});

describe("retention", () => {
  it("the cron purge drops events older than 30 days but keeps each organization's last, so sequences go on", async () => {
    const org = await createOrganization();
    await createLocation(org);
    await createLocation(org);
    await tenantDb()
      .prepare("UPDATE events SET occurred_at = ? WHERE organization_id = ?")
      .bind(Date.now() - 31 * 86_400_000, org.id)
      .run();
    await purgeExpiredEvents(createDatabase(tenantDb()));
    expect((await feed(org)).map((e) => e.sequence)).toEqual([2]);
    await createLocation(org);
    expect((await lastEvent(org)).sequence).toBe(3);
  });
});
