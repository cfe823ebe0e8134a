import { createRouter } from "@/platform/create-app";
import * as handlers from "./policies.handlers";
import * as routes from "./policies.routes";
import * as workerPolicies from "./worker-policies.handlers";

/** `/policies/types` is registered before `/policies/{policy_id}` so the literal path wins. */
export default createRouter()
  .openapi(routes.listTypes, handlers.listTypes)
  .openapi(routes.createType, handlers.createType)
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.get, handlers.get)
  .openapi(routes.patch, handlers.patch)
  .openapi(routes.activate, handlers.activate)
  .openapi(routes.deactivate, handlers.deactivate)
  .openapi(routes.listForPolicy, workerPolicies.listForPolicy)
  .openapi(routes.listWorkerPolicies, workerPolicies.list)
  .openapi(routes.ledger, workerPolicies.ledger);
