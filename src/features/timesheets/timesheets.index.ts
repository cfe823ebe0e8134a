import { createRouter } from "@/platform/create-app";
import * as handlers from "./timesheets.handlers";
import * as routes from "./timesheets.routes";

// Fixed paths before /api/timesheets/{id}, which would otherwise take "export", "reports" and "locked-days".
export default createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.removeDay, handlers.removeDay)
  .openapi(routes.create, handlers.create)
  .openapi(routes.exportShifts, handlers.exportShifts)
  .openapi(routes.reportEmployees, handlers.reportEmployees)
  .openapi(routes.reportDays, handlers.reportDays)
  .openapi(routes.lockDay, handlers.lockDay)
  .openapi(routes.unlockDay, handlers.unlockDay)
  .openapi(routes.photos, handlers.photos)
  .openapi(routes.history, handlers.history)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.listForLocation, handlers.listForLocation);
