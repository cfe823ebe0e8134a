import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createStaffMember } from "../../helpers/staff";
import { createManual, staffWithPermissions } from "../../helpers/timesheets";
import { DEV_PARTNER } from "../../helpers/tokens";
import { createWorkplace } from "../../helpers/workplace";

const DAY = { startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T17:00:00Z" };
const history = (id: string, token: string, query = "") => api("GET", `/api/timesheets/${id}/history${query}`, { token });

describe("GET /api/timesheets/{id}/history", () => {
  it("lists create, edit and delete as versions 1–3, oldest first, with who, when and the end time before and after", async () => {
    const w = await createWorkplace();
    const shift = await createManual(w, DAY);
    const manager = await staffWithPermissions(w, ["SHIFT_READ", "SHIFT_WRITE"]);
    const edited = await api("PATCH", `/api/timesheets/${shift.id}`, { token: manager.token, body: { endTime: "2026-03-14T18:00:00Z" } });
    expect(edited.status).toBe(200);
    expect((await api("DELETE", `/api/timesheets/${shift.id}`, { token: w.org.adminToken })).status).toBe(200);

    const res = await history(shift.id, w.org.adminToken);
    expect(res.status).toBe(200);
    expect(res.body.map((v: { version: number }) => v.version)).toEqual([1, 2, 3]);
    const [created, patched, deleted] = res.body;
    expect(created).toMatchObject({
      actor: { type: "PARTNER", id: DEV_PARTNER, deviceId: null },
      operationId: "createTimesheetShift",
      before: null,
    });
    expect(created.after).toMatchObject({ id: shift.id, endTime: "2026-03-14T17:00:00.000Z", deletedAt: null });
    expect(patched).toMatchObject({ actor: { type: "STAFF_MEMBER", id: manager.id }, operationId: "updateTimesheetShift" });
    expect(patched.before.endTime).toBe("2026-03-14T17:00:00.000Z");
    expect(patched.after.endTime).toBe("2026-03-14T18:00:00.000Z");
    expect(deleted).toMatchObject({ actor: { type: "PARTNER", id: DEV_PARTNER }, operationId: "deleteTimesheetShift" });
    expect(deleted.before.endTime).toBe("2026-03-14T18:00:00.000Z");
    expect(deleted.after.endTime).toBe("2026-03-14T18:00:00.000Z");
    expect(deleted.after.deletedAt).not.toBeNull();
    for (const v of res.body) expect(Date.parse(v.at)).not.toBeNaN();
    expect(Date.parse(created.at)).toBeLessThanOrEqual(Date.parse(patched.at));
  });

  it("pages with limit and the Link header, numbering versions across pages", async () => {
    const w = await createWorkplace();
    const shift = await createManual(w, DAY);
    for (const end of ["2026-03-14T18:00:00Z", "2026-03-14T19:00:00Z"]) {
      expect((await api("PATCH", `/api/timesheets/${shift.id}`, { token: w.org.adminToken, body: { endTime: end } })).status).toBe(200);
    }
    const first = await history(shift.id, w.org.adminToken, "?limit=2");
    expect(first.body.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("Link") ?? "")?.[1];
    expect(next).toBeDefined();
    const second = await api("GET", next!, { token: w.org.adminToken });
    expect(second.body.map((v: { version: number }) => v.version)).toEqual([3]);
    expect(second.body[0].after.endTime).toBe("2026-03-14T19:00:00.000Z");
    expect(second.headers.get("Link")).toBeNull();
    const bad = await history(shift.id, w.org.adminToken, "?cursor=nope");
    expect(bad.status).toBe(400);
  });

  it("a staff member without SHIFT_READ reads their own shift's history, not a colleague's (404, as GET /timesheets/{id})", async () => {
    const w = await createWorkplace();
    const colleague = await createStaffMember(w.org, { locationIds: [w.location.id] });
    const own = await createManual(w, DAY);
    const theirs = await createManual(w, { ...DAY, employeeId: colleague.id });
    const mine = await history(own.id, w.token);
    expect(mine.status).toBe(200);
    expect(mine.body).toHaveLength(1);
    const refused = await history(theirs.id, w.token);
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe("SHIFT_NOT_FOUND");
    expect((await history("nope", w.org.adminToken)).status).toBe(404);
  });

  it("another organization's shift is 404", async () => {
    const w = await createWorkplace();
    const other = await createWorkplace();
    const shift = await createManual(w, DAY);
    const res = await history(shift.id, other.org.adminToken);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("SHIFT_NOT_FOUND");
  });
});
