import { describe, expect, it } from "vitest";
import { enrollDevice, setStaffPin } from "../helpers/kiosk";
import { recordingRequest } from "../helpers/recording-d1";
import { createWorkplace } from "../helpers/workplace";

const PIN = "2468";

/** The round trips of a request that read staff_member_pins or pin_failures, and of all of them. */
const pinTrips = (trips: string[][]) => trips.filter((trip) => trip.some((sql) => /"staff_member_pins"|"pin_failures"/.test(sql)));

describe("a kiosk punch's D1 round trips (issue Kiosks' bench)", () => {
  it("the device and the PIN are read in the punch's own read batch; the PIN's try is claimed, then given back; one write", async () => {
    const w = await createWorkplace();
    await setStaffPin(w.org, w.staff.id, PIN);
    const device = await enrollDevice(w.org, w.location.id);
    const figures: string[] = [];
    const bodies = [{ action: "CLOCK_IN", roleId: w.roleId }, { action: "CLOCK_OUT" }, { action: "CLOCK_IN", roleId: w.roleId }];
    for (const [i, body] of bodies.entries()) {
      const res = await recordingRequest("POST", "/api/kiosk/punches", {
        token: device.token,
        body: { employeeId: w.staff.id, pin: PIN, ...body },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      // At most once a minute, the device's lastSeenAt (a conditional UPDATE of its own).
      const punchTrips = res.trips.filter((trip) => !trip.every((sql) => /^update "devices"/i.test(sql)));
      const deviceTrips = punchTrips.filter((trip) => trip.some((sql) => /from "devices"/i.test(sql)));
      if (i === 0) {
        // The token's first request on this isolate: the device is looked up first (its location decides the reads).
        expect(punchTrips).toHaveLength(5);
        expect(deviceTrips).toEqual([punchTrips[0]]);
        expect(punchTrips[0]).toHaveLength(1);
      } else {
        // Then: the device's row (still enrolled?) in the read batch, with the PIN's rows and the punch's.
        expect(punchTrips).toHaveLength(4);
        expect(deviceTrips).toEqual([punchTrips[0]]);
      }
      // A try is claimed before the PIN is compared, and a right PIN gives it back (issue 44): two round trips of one
      // statement each between the read and the write.
      const [readBatch, claim, giveBack] = punchTrips.slice(-4, -1) as [string[], string[], string[]];
      expect(pinTrips(punchTrips)).toEqual([readBatch, claim, giveBack]);
      expect(claim).toHaveLength(1);
      expect(claim[0]).toMatch(/^insert into "pin_failures"/i);
      expect(giveBack).toHaveLength(1);
      expect(giveBack[0]).toMatch(/^delete from "pin_failures"/i);
      expect(readBatch.some((sql) => /from "shifts"/i.test(sql))).toBe(true);
      figures.push(`${body.action}: ${res.trips.length} round trips (${res.trips.map((t) => t.length).join(" + ")} statements)`);
    }
    console.log(`D1 per kiosk punch: ${figures.join("; ")}`);
  });

  it("a wrong PIN: the same read batch, then only its failure, in one conditional statement", async () => {
    const w = await createWorkplace();
    await setStaffPin(w.org, w.staff.id, PIN);
    const device = await enrollDevice(w.org, w.location.id);
    const res = await recordingRequest("POST", "/api/kiosk/punches", {
      token: device.token,
      body: { employeeId: w.staff.id, pin: "1357", action: "CLOCK_IN", roleId: w.roleId },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("PIN_INCORRECT");
    const writes = res.trips.flat().filter((sql) => /^\s*(insert|update|delete)/i.test(sql) && !/^update "devices"/i.test(sql));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^insert into "pin_failures"/i);
    expect(writes[0]).toMatch(/where exists/i);
  });
});
