import { createRouter } from "@/platform/create-app";
import * as handlers from "./webhooks.handlers";
import * as routes from "./webhooks.routes";

export default createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.test, handlers.test)
  .openapi(routes.deliveries, handlers.deliveries)
  .openapi(routes.replay, handlers.replay);
