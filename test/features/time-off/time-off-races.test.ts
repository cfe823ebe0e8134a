import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import {
  balanceOf,
  createRequest,
  createTimeOffPlace,
  dayFromToday,
  ledgerOf,
  orgPath,
  requestBody,
  setBalance,
} from "../../helpers/time-off";

const statuses = (responses: { status: number }[]) => responses.map((r) => r.status).sort();

describe("time-off races: the balance check and the write are one statement", () => {
  it("two concurrent approvals of one request give one 200 and one 409 REQUEST_NOT_PENDING, with one usage entry", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 20);
    const created = await createRequest(place, requestBody(place));
    const path = orgPath(place.org, `/time-off-requests/${created.body.id}/approve`);
    const results = await Promise.all([1, 2].map(() => api("POST", path, { token: place.org.adminToken })));
    expect(statuses(results)).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe("REQUEST_NOT_PENDING");
    expect((await ledgerOf(created.body.workerPolicy.id)).filter((e) => e.kind === "usage")).toHaveLength(1);
    expect((await balanceOf(place)).hoursBalance).toBe(12);
  });

  it("ten concurrent auto-approved requests against 40 h: exactly five succeed and the balance ends at zero", async () => {
    const place = await createTimeOffPlace({ requiresApproval: false });
    await setBalance(place, 40);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => createRequest(place, requestBody(place, dayFromToday(10 + i), 8))),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(r.body.code).toBe("INSUFFICIENT_BALANCE");
    expect(await balanceOf(place)).toMatchObject({ hoursBalance: 0, availableBalance: 0 });
  });

  it("concurrent pending requests never reserve more than the available balance", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 20);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => createRequest(place, requestBody(place, dayFromToday(10 + i), 6))),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(await balanceOf(place)).toMatchObject({ hoursBalance: 20, availableBalance: 2 });
  });

  it("concurrent overlapping requests of one worker: one is created, the others are 409 TIME_OFF_OVERLAP", async () => {
    const place = await createTimeOffPlace({ allowNegativeBalance: true });
    const results = await Promise.all(Array.from({ length: 4 }, () => createRequest(place, requestBody(place))));
    expect(statuses(results)).toEqual([201, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe("TIME_OFF_OVERLAP");
  });

  it("an approval racing a cancellation leaves either no entry or a usage and its reversal", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 20);
    const created = await createRequest(place, requestBody(place));
    const path = orgPath(place.org, `/time-off-requests/${created.body.id}`);
    await Promise.all([api("POST", `${path}/approve`, { token: place.org.adminToken }), api("DELETE", path, { token: place.workerToken })]);
    expect((await balanceOf(place)).hoursBalance).toBe(20);
    const final = await api("GET", path, { token: place.org.adminToken });
    expect(final.body.status).toBe("cancelled");
  });
});
