import { createRouter } from "@/platform/create-app";
import * as handlers from "./shift-notes.handlers";
import * as routes from "./shift-notes.routes";

export default createRouter().openapi(routes.list, handlers.list).openapi(routes.create, handlers.create);
