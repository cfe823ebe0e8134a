import { createRouter } from "@/platform/create-app";
import * as handlers from "./access-roles.handlers";
import * as routes from "./access-roles.routes";

export default createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.remove, handlers.remove);
