import { createRouter } from "@/platform/create-app";
import * as handlers from "./availability.handlers";
import * as routes from "./availability.routes";

export default createRouter()
  .openapi(routes.expand, handlers.expand)
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.get, handlers.get)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.remove, handlers.remove);
