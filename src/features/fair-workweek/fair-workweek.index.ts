import { createRouter } from "@/platform/create-app";
import * as handlers from "./fair-workweek.handlers";
import * as routes from "./fair-workweek.routes";

export default createRouter()
  .openapi(routes.listRulePacks, handlers.listRulePacks)
  .openapi(routes.getLocationFairWorkweek, handlers.getLocationFairWorkweek)
  .openapi(routes.putLocationFairWorkweek, handlers.putLocationFairWorkweek)
  .openapi(routes.getGoodFaithEstimate, handlers.getGoodFaithEstimate)
  .openapi(routes.putGoodFaithEstimate, handlers.putGoodFaithEstimate);
