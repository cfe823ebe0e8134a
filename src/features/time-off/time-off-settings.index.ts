import { createRouter } from "@/platform/create-app";
import * as handlers from "./time-off-settings.handlers";
import * as routes from "./time-off-settings.routes";

export default createRouter().openapi(routes.get, handlers.get).openapi(routes.patch, handlers.patch);
