import { describe, expect, it } from "vitest";
import { api } from "./helpers/api";
import { createOrganization } from "./helpers/fixtures";
import { enrollDevice, pinCheck, setStaffPin } from "./helpers/kiosk";
import { createLocation } from "./helpers/locations";
import { createStaffMember } from "./helpers/staff";

describe("smoke", () => {
  it("enrolls and checks a pin", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const staff = await createStaffMember(org, { locationIds: [location.id] });
    const { token } = await enrollDevice(org, location.id);
    expect(token).toMatch(/^sld_/);
    await setStaffPin(org, staff.id, "1234");
    const ok = await pinCheck(token, staff.id, "1234");
    expect(ok.status, ok.text).toBe(204);
    const bad = await pinCheck(token, staff.id, "9999");
    expect(bad.status, bad.text).toBe(401);
    const list = await api("GET", "/api/kiosk/staff", { token });
    expect(list.status, list.text).toBe(200);
    expect(list.body).toHaveLength(1);
    const other = await api("GET", `/api/organizations/${org.id}`, { token });
    expect(other.status, other.text).toBe(403);
  });
});
