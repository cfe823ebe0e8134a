import { createRouter } from "@/platform/create-app";
import * as policies from "./policies.handlers";
import * as policyRoutes from "./policies.routes";
import * as requests from "./time-off-requests.handlers";
import * as requestRoutes from "./time-off-requests.routes";
import * as settings from "./time-off-settings.handlers";
import * as settingsRoutes from "./time-off-settings.routes";
import * as workerPolicies from "./worker-policies.handlers";

/**
 * Policies, worker policies and their ledger, requests and settings. Literal paths (`/policies/types`,
 * `/time-off-requests/time-offs`) are registered before the `/{id}` paths they would otherwise match.
 */
export default createRouter()
  .openapi(policyRoutes.listTypes, policies.listTypes)
  .openapi(policyRoutes.createType, policies.createType)
  .openapi(policyRoutes.list, policies.list)
  .openapi(policyRoutes.create, policies.create)
  .openapi(policyRoutes.get, policies.get)
  .openapi(policyRoutes.patch, policies.patch)
  .openapi(policyRoutes.activate, policies.activate)
  .openapi(policyRoutes.deactivate, policies.deactivate)
  .openapi(policyRoutes.listForPolicy, workerPolicies.listForPolicy)
  .openapi(policyRoutes.listWorkerPolicies, workerPolicies.list)
  .openapi(policyRoutes.ledger, workerPolicies.ledger)
  .openapi(requestRoutes.timeOffs, requests.timeOffs)
  .openapi(requestRoutes.list, requests.list)
  .openapi(requestRoutes.create, requests.create)
  .openapi(requestRoutes.get, requests.get)
  .openapi(requestRoutes.update, requests.update)
  .openapi(requestRoutes.cancel, requests.cancel)
  .openapi(requestRoutes.approve, requests.approve)
  .openapi(requestRoutes.decline, requests.decline)
  .openapi(settingsRoutes.get, settings.get)
  .openapi(settingsRoutes.patch, settings.patch);
