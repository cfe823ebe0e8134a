import { createRouter } from "@/platform/create-app";
import * as handlers from "./custom-fields.handlers";
import * as routes from "./custom-fields.routes";

export default createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.remove, handlers.remove);
