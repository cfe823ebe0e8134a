import { createRouter } from "@/platform/create-app";
import * as handlers from "./auth.handlers";
import * as routes from "./auth.routes";

export default createRouter().openapi(routes.exchangeToken, handlers.exchangeToken);
