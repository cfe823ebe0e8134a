import { createRouter } from "@/platform/create-app";
import * as handlers from "./holidays.handlers";
import * as routes from "./holidays.routes";

export default createRouter()
  .openapi(routes.getLocationHolidays, handlers.getLocationHolidays)
  .openapi(routes.getHolidayOverrides, handlers.getHolidayOverrides)
  .openapi(routes.putHolidayOverrides, handlers.putHolidayOverrides);
