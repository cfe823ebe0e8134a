import { createRouter } from "@/platform/create-app";
import * as handlers from "./break-types.handlers";
import * as routes from "./break-types.routes";

export default createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.remove, handlers.remove);
