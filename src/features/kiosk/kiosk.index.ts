import { createRouter } from "@/platform/create-app";
import * as handlers from "./kiosk.handlers";
import * as routes from "./kiosk.routes";
import { StaffMemberPinChange, StaffMemberPinUnlock } from "./kiosk.schemas";

/** Devices of a location, staff PINs and the kiosk operations (device token). */
const router = createRouter()
  .openapi(routes.listDevices, handlers.listDevices)
  .openapi(routes.createDevice, handlers.createDevice)
  .openapi(routes.revokeDevice, handlers.revokeDevice)
  .openapi(routes.rotateDevice, handlers.rotateDevice)
  .openapi(routes.putPin, handlers.putPin)
  .openapi(routes.deletePin, handlers.deletePin)
  .openapi(routes.liftPinLock, handlers.liftPinLock)
  .openapi(routes.kioskStaff, handlers.kioskStaff)
  .openapi(routes.pinCheck, handlers.pinCheck);

// Schemas only events carry (staff_member.pin_updated, staff_member.pin_unlocked).
router.openAPIRegistry.register("StaffMemberPinChange", StaffMemberPinChange);
router.openAPIRegistry.register("StaffMemberPinUnlock", StaffMemberPinUnlock);

export default router;
