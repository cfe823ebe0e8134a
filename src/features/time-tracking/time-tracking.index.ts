import { createRouter } from "@/platform/create-app";
import * as handlers from "./time-tracking.handlers";
import * as routes from "./time-tracking.routes";

export default createRouter()
  .openapi(routes.shiftState, handlers.shiftState)
  .openapi(routes.clockIn, handlers.clockIn)
  .openapi(routes.clockOut, handlers.clockOut)
  .openapi(routes.breakStart, handlers.breakStart)
  .openapi(routes.breakEnd, handlers.breakEnd)
  .openapi(routes.switchShift, handlers.switchShift);
