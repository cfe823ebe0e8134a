// Measurement only (scripts/first-request.mjs): a frameworkless Worker, whose first request on a fresh `wrangler dev`
// shows what wrangler and workerd themselves add to any first request.
export default { fetch: () => new Response("ok") };
export { AccrualWorkflow, BulkWorkflow, PayCloseWorkflow } from "./first-request-workflow-stubs";
