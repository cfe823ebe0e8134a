import { createRouter } from "@/platform/create-app";
import * as handlers from "./kiosk.handlers";
import * as routes from "./kiosk.routes";

/** The one kiosk operation without a token: a device trades its enrollment code for its token. */
export default createRouter().openapi(routes.enroll, handlers.enroll);
