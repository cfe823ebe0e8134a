import { createRouter } from "@/platform/create-app";
import * as handlers from "./jobs.handlers";
import * as routes from "./jobs.routes";

export default createRouter().openapi(routes.getOne, handlers.getOne);
