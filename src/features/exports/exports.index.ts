import { createRouter } from "@/platform/create-app";
import * as handlers from "./exports.handlers";
import * as routes from "./exports.routes";

export default createRouter()
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.download, handlers.download);
