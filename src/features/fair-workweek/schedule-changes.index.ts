import { createRouter } from "@/platform/create-app";
import * as consentHandlers from "./consents.handlers";
import * as consentRoutes from "./consents.routes";
import * as handlers from "./schedule-changes.handlers";
import * as routes from "./schedule-changes.routes";

export default createRouter()
  .openapi(routes.list, handlers.list)
  .openapi(consentRoutes.create, consentHandlers.create)
  .openapi(consentRoutes.list, consentHandlers.list);
