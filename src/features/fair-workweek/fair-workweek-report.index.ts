import { createRouter } from "@/platform/create-app";
import * as handlers from "./fair-workweek-report.handlers";
import * as routes from "./fair-workweek-report.routes";

export default createRouter().openapi(routes.report, handlers.report);
