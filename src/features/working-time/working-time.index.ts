import { createRouter } from "@/platform/create-app";
import * as handlers from "./working-time.handlers";
import * as routes from "./working-time.routes";

export default createRouter()
  .openapi(routes.listWorkingTimePacks, handlers.listWorkingTimePacks)
  .openapi(routes.getLocationWorkingTime, handlers.getLocationWorkingTime)
  .openapi(routes.putLocationWorkingTime, handlers.putLocationWorkingTime)
  .openapi(routes.putSchoolTerms, handlers.putSchoolTerms)
  .openapi(routes.report, handlers.report);
