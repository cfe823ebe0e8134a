import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization } from "../../helpers/fixtures";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { clockIn, createWorkplace, punch } from "../../helpers/workplace";

const notesPath = (orgId: string, staffId: string) => `/api/organizations/${orgId}/staffmembers/${staffId}/shift-notes`;

describe("shift notes", () => {
  it("POST and GET …/shift-notes write and read notes on the current shift", async () => {
    const w = await createWorkplace();
    const shift = await clockIn(w);
    const created = await api("POST", notesPath(w.org.id, w.staff.id), { token: w.token, body: { text: "Covered the front desk." } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ shiftId: shift.body.id, authorId: w.staff.id, text: "Covered the front desk." });
    await api("POST", notesPath(w.org.id, w.staff.id), { token: w.org.adminToken, body: { text: "Approved." } });
    const listed = await api("GET", notesPath(w.org.id, w.staff.id), { token: w.token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((n: { text: string }) => n.text)).toEqual(["Covered the front desk.", "Approved."]);
  });

  it("answers 409 NO_OPEN_SHIFT without an open shift, and the next shift starts with no notes", async () => {
    const w = await createWorkplace();
    const none = await api("POST", notesPath(w.org.id, w.staff.id), { token: w.token, body: { text: "Hi" } });
    expect(none.status).toBe(409);
    expect(none.body.code).toBe("NO_OPEN_SHIFT");
    expect((await api("GET", notesPath(w.org.id, w.staff.id), { token: w.token })).body.code).toBe("NO_OPEN_SHIFT");
    await clockIn(w);
    await api("POST", notesPath(w.org.id, w.staff.id), { token: w.token, body: { text: "First shift" } });
    await punch(w, "clock-out");
    await clockIn(w);
    expect((await api("GET", notesPath(w.org.id, w.staff.id), { token: w.token })).body).toEqual([]);
  });

  it("rejects empty or over-long text with 400", async () => {
    const w = await createWorkplace();
    await clockIn(w);
    for (const text of ["", "   ", "x".repeat(2001)]) {
      const res = await api("POST", notesPath(w.org.id, w.staff.id), { token: w.token, body: { text } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe("text");
    }
  });

  it("is 404 for an unknown staff member or another organization, 403 for a colleague, 401 without a token", async () => {
    const w = await createWorkplace();
    expect((await api("GET", notesPath(w.org.id, "nope"), { token: w.org.adminToken })).status).toBe(404);
    expect((await api("POST", notesPath(w.org.id, "nope"), { token: w.org.adminToken, body: { text: "x" } })).status).toBe(404);
    const other = await createOrganization();
    expect((await api("GET", notesPath(w.org.id, w.staff.id), { token: other.adminToken })).status).toBe(404);
    const colleague = await createStaffMember(w.org);
    expect(
      (await api("POST", notesPath(w.org.id, w.staff.id), { token: await staffToken(w.org, colleague.id), body: { text: "x" } })).status,
    ).toBe(403);
    expect((await api("GET", notesPath(w.org.id, w.staff.id))).status).toBe(401);
  });
});
