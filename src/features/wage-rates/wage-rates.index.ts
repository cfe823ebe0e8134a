import { createRouter } from "@/platform/create-app";
import * as handlers from "./wage-rates.handlers";
import * as routes from "./wage-rates.routes";

// resolve before {id}: a path segment, not a rate id.
export default createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.resolve, handlers.resolve)
  .openapi(routes.get, handlers.get)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.remove, handlers.remove);
