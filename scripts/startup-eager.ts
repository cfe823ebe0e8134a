// Measurement only (scripts/startup-and-bundle.mjs): the Worker with the feature of a token exchange evaluated at
// startup rather than on that request. Its startup CPU minus the Worker's is what evaluating a feature's modules costs
// a cold isolate's first request to it (the platform itself is evaluated at startup: src/worker.ts).
import "../src/features/token-exchange/token-exchange.index";

// Every export of the Worker (its Workflow classes too: wrangler refuses an entry without those wrangler.toml binds).
export * from "../src/worker";
export { default } from "../src/worker";
