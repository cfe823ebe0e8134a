import { createRouter } from "@/platform/create-app";
import * as handlers from "./token-exchange.handlers";
import * as routes from "./token-exchange.routes";

export default createRouter().openapi(routes.exchangeToken, handlers.exchangeToken);
