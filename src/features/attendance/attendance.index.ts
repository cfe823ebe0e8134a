import { createRouter } from "@/platform/create-app";
import * as handlers from "./attendance.handlers";
import * as routes from "./attendance.routes";

export default createRouter()
  .openapi(routes.getSettings, handlers.getSettings)
  .openapi(routes.patchSettings, handlers.patchSettings)
  .openapi(routes.list, handlers.list)
  .openapi(routes.get, handlers.get)
  .openapi(routes.resolve, handlers.resolve);
