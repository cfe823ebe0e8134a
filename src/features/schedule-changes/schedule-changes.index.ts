import { createRouter } from "@/platform/create-app";
import * as handlers from "./schedule-changes.handlers";
import * as routes from "./schedule-changes.routes";

export default createRouter().openapi(routes.list, handlers.list);
