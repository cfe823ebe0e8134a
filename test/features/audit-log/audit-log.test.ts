import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { tenantDb } from "../../helpers/shards";
import { createManual } from "../../helpers/timesheets";
import { clockIn, createWorkplace, punch } from "../../helpers/workplace";

const auditLog = (orgId: string, token: string, query: string) => api("GET", `/api/organizations/${orgId}/audit-log?${query}`, { token });

describe("audit log", () => {
  it("keeps a shift edit's who, what, when, from where, and the shift before and after", async () => {
    const w = await createWorkplace();
    const shift = await createManual(w, { startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T17:00:00Z" });
    // The edit from Germany (Cloudflare's request.cf.country), by the organization's admin token (the partner's backend).
    const edit = await exports.default.fetch(
      new Request(`http://shiftline.test/api/timesheets/${shift.id}`, {
        method: "PATCH",
        headers: { Authorization: `Bearer ${w.org.adminToken}`, "Content-Type": "application/json" },
        body: JSON.stringify({ endTime: "2026-03-14T18:00:00Z" }),
        cf: { country: "DE" },
      } as RequestInit),
    );
    expect(edit.status).toBe(200);

    const history = await auditLog(w.org.id, w.org.adminToken, `resourceType=shift&resourceId=${shift.id}`);
    expect(history.status).toBe(200);
    expect(history.body.map((e: { eventType: string }) => e.eventType)).toEqual(["shift.created", "shift.updated"]);
    const [created, updated] = history.body;
    expect(created.before).toBeNull();
    expect(created.after.endTime).toBe("2026-03-14T17:00:00.000Z");
    expect(updated).toMatchObject({
      actor: { type: "PARTNER", id: "dev-partner", deviceId: null },
      operationId: "updateTimesheetShift",
      resourceType: "shift",
      resourceId: shift.id,
      staffMemberId: w.staff.id,
      ipCountry: "DE",
    });
    // Before: the shift as created (09:00–17:00); after: as edited (to 18:00), each as GET /timesheets/{id} answers it.
    expect(updated.before.endTime).toBe("2026-03-14T17:00:00.000Z");
    expect(updated.after.endTime).toBe("2026-03-14T18:00:00.000Z");
    expect(updated.before.id).toBe(shift.id);
    expect(Date.parse(updated.at)).toBeGreaterThanOrEqual(Date.parse(created.at));
  });

  it("reads a worker's history: their punches by their own token, with the shift before and after each", async () => {
    const w = await createWorkplace();
    expect((await clockIn(w)).status).toBe(200);
    expect((await punch(w, "clock-out")).status).toBe(200);
    const other = await createManual(w, { startTime: "2026-03-10T09:00:00Z", endTime: "2026-03-10T12:00:00Z" });
    const mine = await auditLog(w.org.id, w.org.adminToken, `staffMemberId=${w.staff.id}&resourceType=shift`);
    expect(mine.status).toBe(200);
    expect(mine.body.map((e: { eventType: string }) => e.eventType)).toEqual(["shift.clocked_in", "shift.clocked_out", "shift.created"]);
    const [inEntry, outEntry] = mine.body;
    expect(inEntry.actor).toEqual({ type: "STAFF_MEMBER", id: w.staff.id, deviceId: null });
    expect(inEntry.operationId).toBe("clockIn");
    expect(outEntry.resourceId).toBe(inEntry.resourceId);
    // The clock-out's before is the open shift the clock-in left.
    expect(outEntry.before).toEqual(inEntry.after);
    expect(mine.body[2].resourceId).toBe(other.id);
    // By actor: only the staff member's own writes (the unscheduled clock-in raised its exception in its own batch).
    const byActor = await auditLog(w.org.id, w.org.adminToken, `actorId=${w.staff.id}`);
    expect(byActor.body.map((e: { eventType: string }) => e.eventType)).toEqual([
      "shift.clocked_in",
      "attendance_exception.raised",
      "shift.clocked_out",
    ]);
  });

  it("filters by time and pages oldest first with a Link header", async () => {
    const w = await createWorkplace();
    for (const day of ["2026-03-02", "2026-03-03", "2026-03-04"]) {
      await createManual(w, { startTime: `${day}T09:00:00Z`, endTime: `${day}T12:00:00Z` });
    }
    const first = await auditLog(w.org.id, w.org.adminToken, "resourceType=shift&limit=2");
    expect(first.body).toHaveLength(2);
    const link = first.headers.get("Link")!;
    expect(link).toMatch(/rel="next"/);
    const next = await api("GET", link.slice(1, link.indexOf(">")), { token: w.org.adminToken });
    expect(next.body).toHaveLength(1);
    expect(next.headers.get("Link")).toBeNull();
    const future = await auditLog(w.org.id, w.org.adminToken, "startTime=2099-01-01T00:00:00Z");
    expect(future.body).toEqual([]);
    const bad = await auditLog(w.org.id, w.org.adminToken, "cursor=bm9wZQ");
    expect(bad.status).toBe(400);
  });

  it("is immutable: an entry cannot be changed or deleted while its organization lives", async () => {
    const w = await createWorkplace();
    await createManual(w, { startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T17:00:00Z" });
    const db = tenantDb();
    await expect(db.prepare("UPDATE audit_log SET actor_id = 'someone' WHERE organization_id = ?").bind(w.org.id).run()).rejects.toThrow(
      /immutable/,
    );
    await expect(db.prepare("DELETE FROM audit_log WHERE organization_id = ?").bind(w.org.id).run()).rejects.toThrow(
      /only with their organization/,
    );
    expect((await api("DELETE", `/api/organizations/${w.org.id}`, { token: w.org.adminToken })).status).toBe(200);
    await db.prepare("DELETE FROM audit_log WHERE organization_id = ?").bind(w.org.id).run();
    const left = await db.prepare("SELECT count(*) AS n FROM audit_log WHERE organization_id = ?").bind(w.org.id).first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("needs ORGANIZATION_ADMIN", async () => {
    const w = await createWorkplace();
    expect((await auditLog(w.org.id, w.token, "")).status).toBe(403);
  });
});
