import { createRouter } from "@/platform/create-app";
import * as handlers from "./audit-log.handlers";
import * as routes from "./audit-log.routes";

export default createRouter().openapi(routes.list, handlers.list);
