import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { clockIn, createWorkplace, punch, type Workplace } from "../../helpers/workplace";

const notesPath = (w: Workplace, staffId = w.staff.id) => `/api/organizations/${w.org.id}/staffmembers/${staffId}/shift-notes`;
const noteEvents = async (w: Workplace) =>
  (
    (await api("GET", `/api/organizations/${w.org.id}/events?limit=500`, { token: w.org.adminToken })).body as {
      type: string;
      data: unknown;
    }[]
  ).filter((e) => e.type === "shift_note.created");
const storedNotes = async (w: Workplace) =>
  (await tenantDb().prepare("SELECT COUNT(*) AS n FROM shift_notes WHERE organization_id = ?").bind(w.org.id).first<{ n: number }>())!.n;

describe("shift notes: refusals and side effects", () => {
  it("a note records shift_note.created with the note as answered, authored by the caller", async () => {
    const w = await createWorkplace();
    await clockIn(w);
    const own = await api("POST", notesPath(w), { token: w.token, body: { text: "Till 2 short by $5" } });
    const manager = await createStaffMember(w.org, { accessRoleName: "Manager" });
    const byManager = await api("POST", notesPath(w), {
      token: await staffToken(w.org, manager.id),
      body: { text: "Counted again: fine" },
    });
    expect(byManager.status).toBe(201);
    expect(byManager.body.authorId).toBe(manager.id);
    expect((await noteEvents(w)).map((e) => e.data)).toEqual([own.body, byManager.body]);
  });

  it("refusals (no open shift 409, bad text 400, colleague 403, unknown staff 404) store and record nothing", async () => {
    const w = await createWorkplace();
    const none = await api("POST", notesPath(w), { token: w.token, body: { text: "Hi" } });
    expect(none.status).toBe(409);
    expect(none.body.code).toBe("NO_OPEN_SHIFT");
    await clockIn(w);
    for (const text of ["", " \n ", "x".repeat(2001)])
      expectInvalid(await api("POST", notesPath(w), { token: w.token, body: { text } }), ["text"]);
    expectInvalid(await api("POST", notesPath(w), { token: w.token, body: {} }), ["text"]);
    const colleague = await createStaffMember(w.org, { locationIds: [w.location.id], accessRoleName: "Employee" });
    const colleagueToken = await staffToken(w.org, colleague.id);
    const foreign = await api("POST", notesPath(w), { token: colleagueToken, body: { text: "Not mine" } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe("FORBIDDEN");
    expect((await api("GET", notesPath(w), { token: colleagueToken })).status).toBe(403);
    const unknown = await api("POST", notesPath(w, "nope"), { token: w.org.adminToken, body: { text: "x" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("STAFF_MEMBER_NOT_FOUND");
    expect(await storedNotes(w)).toBe(0);
    expect(await noteEvents(w)).toEqual([]);
  });

  it("notes belong to the open shift of that staff member: a colleague's shift shows none of them; clock-out closes them off", async () => {
    const w = await createWorkplace();
    const colleague = await createStaffMember(w.org, { locationIds: [w.location.id], accessRoleName: "Employee" });
    const colleagueToken = await staffToken(w.org, colleague.id);
    const shift = await clockIn(w);
    await clockIn({ ...w, staff: colleague, token: colleagueToken, punchPath: w.punchPath.replace(w.staff.id, colleague.id) });
    const note = await api("POST", notesPath(w), { token: w.token, body: { text: "Mine" } });
    expect(note.body.shiftId).toBe(shift.body.id);
    expect((await api("GET", notesPath(w, colleague.id), { token: colleagueToken })).body).toEqual([]);
    await punch(w, "clock-out");
    expect((await api("GET", notesPath(w), { token: w.token })).body.code).toBe("NO_OPEN_SHIFT");
  });

  it("the listing pages with limit and a Link rel=next, oldest first", async () => {
    const w = await createWorkplace();
    await clockIn(w);
    for (const text of ["one", "two", "three"]) await api("POST", notesPath(w), { token: w.token, body: { text } });
    const first = await api("GET", `${notesPath(w)}?limit=2`, { token: w.token });
    expect(first.body.map((n: { text: string }) => n.text)).toEqual(["one", "two"]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("Link") ?? "")?.[1];
    expect(next).toBeTruthy();
    const second = await api("GET", new URL(next!, "http://shiftline.test").pathname + new URL(next!, "http://shiftline.test").search, {
      token: w.token,
    });
    expect(second.body.map((n: { text: string }) => n.text)).toEqual(["three"]);
    expect(second.headers.get("Link")).toBeNull();
    expectInvalid(await api("GET", `${notesPath(w)}?limit=0`, { token: w.token }), ["limit"]);
  });
});
