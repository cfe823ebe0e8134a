import { createRouter } from "@/platform/create-app";
import * as handlers from "./schedules.handlers";
import * as routes from "./schedules.routes";

// Fixed paths (drafts, publish, bulk-copy) before /{id}, so an id never shadows them.
export default createRouter()
  .openapi(routes.listDrafts, handlers.listDrafts)
  .openapi(routes.getDraft, handlers.getDraft)
  .openapi(routes.createDraft, handlers.createDraft)
  .openapi(routes.patchDraft, handlers.patchDraft)
  .openapi(routes.removeDraft, handlers.removeDraft)
  .openapi(routes.publish, handlers.publish)
  .openapi(routes.bulkCopy, handlers.bulkCopy)
  .openapi(routes.list, handlers.list)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.create, handlers.create)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.remove, handlers.remove);
