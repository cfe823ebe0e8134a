import { createRouter } from "@/platform/create-app";
import * as handlers from "./staff-members.handlers";
import * as routes from "./staff-members.routes";

/** Literal paths (`sync`, `external/…`) before `{id}` ones. */
export default createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.sync, handlers.sync)
  .openapi(routes.getByExternalId, handlers.getByExternalId)
  .openapi(routes.listForLocation, handlers.listForLocation)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.listLocations, handlers.listLocations)
  .openapi(routes.create, handlers.create)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.remove, handlers.remove);
