import { createRouter } from "@/platform/create-app";
import * as handlers from "./test-clock.handlers";
import * as routes from "./test-clock.routes";

export default createRouter().openapi(routes.getClock, handlers.getClock).openapi(routes.advance, handlers.advance);
