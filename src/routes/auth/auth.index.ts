import { createRouter } from "../../lib/create-app";
import * as handlers from "./auth.handlers";
import * as routes from "./auth.routes";

export default createRouter().openapi(routes.exchangeToken, handlers.exchangeToken);
