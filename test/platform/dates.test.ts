import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { changes, snapshot } from "../helpers/db-snapshot";
import { createSchedulePlace, entryBody } from "../helpers/schedules";
import { createRequest, createTimeOffPlace, requestBody } from "../helpers/time-off";

/** A 400 naming `field`, and nothing written. */
async function expectRefused(send: () => Promise<Awaited<ReturnType<typeof api>>>, field: string) {
  const before = await snapshot();
  const res = await send();
  expect(res.status, res.text).toBe(400);
  expect(res.body.code).toBe("VALIDATION_FAILED");
  expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(field);
  expect(changes(before, await snapshot())).toEqual([]);
}

describe("dates and timestamps: a real calendar date from 1970 to 2200, anything else a 400", () => {
  it("time-off requests refuse year 9999, years 0 and 10000, and an impossible date in timestamp form", async () => {
    const place = await createTimeOffPlace();
    for (const startTime of ["9999-12-31T09:00:00Z", "0000-01-01T09:00:00Z", "+010000-01-01T09:00:00Z", "2027-02-30T09:00:00Z"]) {
      await expectRefused(() => createRequest(place, { ...requestBody(place), startTime }), "startTime");
    }
    await expectRefused(
      () => createRequest(place, { ...requestBody(place), hourConfiguration: [{ date: "9999-12-31", hours: 8 }] }),
      "hourConfiguration.0.date",
    );
    for (const startTime of ["9999-12-31", "2025-02-30T10:00:00Z"]) {
      const res = await api("GET", `/api/organizations/${place.org.id}/time-off-requests/time-offs?startTime=${startTime}`, {
        token: place.org.adminToken,
      });
      expect(res.status, startTime).toBe(400);
    }
  });

  it("bulk copy, schedule entries and manual shifts refuse far and impossible dates", async () => {
    const p = await createSchedulePlace();
    await expectRefused(
      () =>
        api("POST", `${p.base}/schedules/bulk-copy`, {
          token: p.org.adminToken,
          body: { fromStartDate: "9999-12-25", fromEndDate: "9999-12-31", toStartDate: "2026-06-01" },
        }),
      "fromStartDate",
    );
    await expectRefused(
      () => api("POST", `${p.base}/schedules`, { token: p.org.adminToken, body: entryBody(p, { startTime: "2025-02-30T10:00:00Z" }) }),
      "startTime",
    );
    await expectRefused(
      () =>
        api("POST", "/api/timesheets", {
          token: p.org.adminToken,
          body: {
            employeeId: p.staff.id,
            locationId: p.location.id,
            roleId: p.roleId,
            startTime: "10000-01-01T09:00:00Z",
            endTime: "10000-01-01T17:00:00Z",
          },
        }),
      "startTime",
    );
    for (const query of ["startDate=9999-12-31&endDate=9999-12-31", "startDate=1969-12-31&endDate=2026-01-01"]) {
      const res = await api("GET", `/api/timesheets?${query}`, { token: p.org.adminToken });
      expect(res.status, query).toBe(400);
    }
    const sync = await api("GET", `/api/organizations/${p.org.id}/roles?updatedSince=2025-02-30T10:00:00Z`, { token: p.org.adminToken });
    expect(sync.status).toBe(400);
  });

  it("the edges are accepted: 1970 and 2200", async () => {
    const p = await createSchedulePlace("UTC");
    const res = await api("POST", `${p.base}/schedules`, {
      token: p.org.adminToken,
      body: entryBody(p, { startTime: "2200-12-31T09:00:00Z", endTime: "2200-12-31T17:00:00Z" }),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.startTime).toBe("2200-12-31T09:00:00.000Z");
    const roles = await api("GET", `/api/organizations/${p.org.id}/roles?updatedSince=1970-01-01T00:00:00Z`, { token: p.org.adminToken });
    expect(roles.status).toBe(200);
  });
});
