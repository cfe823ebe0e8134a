import { createRouter } from "@/platform/create-app";
import * as handlers from "./demand.handlers";
import * as routes from "./demand.routes";

export default createRouter()
  .openapi(routes.upload, handlers.upload)
  .openapi(routes.list, handlers.list)
  .openapi(routes.getTargets, handlers.getTargets)
  .openapi(routes.putTargets, handlers.putTargets);
