import { createRouter } from "@/platform/create-app";
import * as handlers from "./time-off-requests.handlers";
import * as routes from "./time-off-requests.routes";

/** `/time-off-requests/time-offs` is registered before `/{id}` so the literal path wins. */
export default createRouter()
  .openapi(routes.timeOffs, handlers.timeOffs)
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.get, handlers.get)
  .openapi(routes.update, handlers.update)
  .openapi(routes.cancel, handlers.cancel)
  .openapi(routes.approve, handlers.approve)
  .openapi(routes.decline, handlers.decline);
