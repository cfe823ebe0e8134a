import { createRouter } from "@/platform/create-app";
import * as handlers from "./organizations.handlers";
import * as routes from "./organizations.routes";

export default createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.createWithDefaults, handlers.createWithDefaults)
  .openapi(routes.createSandbox, handlers.createSandbox)
  .openapi(routes.getByExternalId, handlers.getByExternalId)
  .openapi(routes.removeByExternalId, handlers.removeByExternalId)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.create, handlers.create)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.remove, handlers.remove);
