import { createRouter } from "@/platform/create-app";
import * as handlers from "./schedule-cost.handlers";
import * as routes from "./schedule-cost.routes";

/** GET …/locations/{locationId}/schedules/cost: mounted apart from scheduling, so `cost` is never an entry id. */
export default createRouter().openapi(routes.get, handlers.get);
