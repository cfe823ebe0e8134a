import { createRouter } from "@/platform/create-app";
import * as handlers from "./cost-codes.handlers";
import * as routes from "./cost-codes.routes";

export default createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.getAssignments, handlers.getAssignments)
  .openapi(routes.putAssignments, handlers.putAssignments);
