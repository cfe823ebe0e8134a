import { createRouter } from "@/platform/create-app";
import * as handlers from "./kiosk-punches.handlers";
import * as routes from "./kiosk-punches.routes";

/** A kiosk's punches and photos (device token): the phone's punches with the device as their origin. */
export default createRouter().openapi(routes.punch, handlers.punch).openapi(routes.uploadPhoto, handlers.uploadPhoto);
