import { createRouter } from "@/platform/create-app";
import * as handlers from "./locations.handlers";
import * as routes from "./locations.routes";

export default createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.sync, handlers.sync)
  .openapi(routes.getByExternalId, handlers.getByExternalId)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.create, handlers.create)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.remove, handlers.remove);
