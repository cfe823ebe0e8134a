import { createRouter } from "@/platform/create-app";
import * as handlers from "./events.handlers";
import * as routes from "./events.routes";

export default createRouter().openapi(routes.list, handlers.list);
