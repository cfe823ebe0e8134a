import { createRouter } from "@/platform/create-app";
import * as handlers from "./open-shifts.handlers";
import * as routes from "./open-shifts.routes";

export default createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.claim, handlers.claim)
  .openapi(routes.retract, handlers.retract)
  .openapi(routes.bulkAssign, handlers.bulkAssign)
  .openapi(routes.createPreference, handlers.createPreference)
  .openapi(routes.retractPreference, handlers.retractPreference)
  .openapi(routes.patchPreference, handlers.patchPreference)
  .openapi(routes.removePreference, handlers.removePreference)
  .openapi(routes.assign, handlers.assign);
