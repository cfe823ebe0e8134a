import { verifyKioskPin } from "@/auth/pins/verify-pin";
import { listPage } from "@/platform/crud/tenant-queries";
import { requestNow } from "@/platform/http/clock";
import type { AppRouteHandler } from "@/platform/http/env";
import { pageResult } from "@/platform/http/pagination";
import * as data from "./devices.data";
import type * as routes from "./kiosk.routes";
import { serializeDevice } from "./kiosk.schemas";
import { kioskStaffPage, withShiftStates } from "./kiosk-staff.data";
import { liftPinLock as liftLock, removePin, setPin } from "./pins.data";

export const createDevice: AppRouteHandler<routes.CreateDeviceRoute> = async (c) => {
  const { organization_id, locationId } = c.req.valid("param");
  await data.assertLocation(c.var.db, organization_id, locationId);
  const { row, code } = await data.createDevice(c.var, organization_id, locationId, c.req.valid("json").name);
  return c.json(serializeDevice(row, code), 201);
};

export const listDevices: AppRouteHandler<routes.ListDevicesRoute> = async (c) => {
  const { organization_id, locationId } = c.req.valid("param");
  await data.assertLocation(c.var.db, organization_id, locationId);
  const rows = await listPage(c, c.var.db, data.deviceRecords, organization_id, c.req.valid("query"), data.devicesAt(locationId));
  return c.json(
    rows.map((row) => serializeDevice(row)),
    200,
  );
};

export const revokeDevice: AppRouteHandler<routes.RevokeDeviceRoute> = async (c) => {
  const { organization_id, locationId, id } = c.req.valid("param");
  return c.json(serializeDevice(await data.revokeDevice(c.var, organization_id, locationId, id)), 200);
};

export const rotateDevice: AppRouteHandler<routes.RotateDeviceRoute> = async (c) => {
  const { organization_id, locationId, id } = c.req.valid("param");
  return c.json(await data.rotateDevice(c.var, organization_id, locationId, id), 200);
};

export const enroll: AppRouteHandler<routes.EnrollRoute> = async (c) =>
  c.json(await data.enroll(c, c.req.valid("json").enrollmentCode), 200);

export const putPin: AppRouteHandler<routes.PutPinRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  await setPin(c.var, organization_id, id, c.req.valid("json").pin);
  return c.body(null, 204);
};

export const deletePin: AppRouteHandler<routes.DeletePinRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  await removePin(c.var, organization_id, id);
  return c.body(null, 204);
};

export const liftPinLock: AppRouteHandler<routes.LiftPinLockRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  await liftLock(c.var, organization_id, id);
  return c.body(null, 204);
};

export const kioskStaff: AppRouteHandler<routes.KioskStaffRoute> = async (c) => {
  const { organizationId, locationId } = c.var.scope;
  const scope = { organizationId, locationId: locationId! };
  const query = c.req.valid("query");
  const members = pageResult(c, await kioskStaffPage(c.var.db, scope, query), query.limit);
  return c.json(await withShiftStates(c.var.db, scope, members, await requestNow(c)), 200);
};

export const pinCheck: AppRouteHandler<routes.PinCheckRoute> = async (c) => {
  const { employeeId, pin } = c.req.valid("json");
  const verdict = await verifyKioskPin(c.var.db, c.var.principal, employeeId, pin);
  if (!verdict.ok) throw verdict.problem;
  return c.body(null, 204);
};
