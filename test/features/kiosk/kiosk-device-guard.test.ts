import { devices } from "@db/schema";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { guardedBatch } from "@/data/write/guarded-batch";
import type { Principal } from "@/domain/permissions";
import { api } from "../../helpers/api";
import { createOrganization } from "../../helpers/fixtures";
import { enrollDevice } from "../../helpers/kiosk";
import { createLocation } from "../../helpers/locations";
import { tenantDb } from "../../helpers/shards";

describe("a kiosk device's writes", () => {
  it("are refused in their own batch (TOKEN_REVOKED) once the device is revoked: the kiosk punches' guard", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const { deviceId } = await enrollDevice(org, location.id);
    const { partner_id } = (await tenantDb()
      .prepare("SELECT partner_id FROM organizations WHERE id = ?")
      .bind(org.id)
      .first<{ partner_id: string }>())!;
    const principal: Principal = {
      partnerId: partner_id,
      organizationId: org.id,
      staffMemberId: null,
      permissions: [],
      device: { deviceId, locationId: location.id },
    };
    const db = createDatabase(tenantDb());
    const write = () =>
      guardedBatch({ db, principal }, [db.update(devices).set({ name: "Renamed by itself" }).where(eq(devices.id, deviceId))]);
    await write();
    expect(
      (await api("DELETE", `/api/organizations/${org.id}/locations/${location.id}/devices/${deviceId}`, { token: org.adminToken })).status,
    ).toBe(200);
    await expect(write()).rejects.toMatchObject({ status: 401, code: "TOKEN_REVOKED" });
  });
});
