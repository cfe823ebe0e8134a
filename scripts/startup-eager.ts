// Measurement only (scripts/startup-and-bundle.mjs): the Worker with its app built at startup rather than on the first
// request. Its startup CPU minus the Worker's is what the first request of a cold isolate pays to build the app.
import "../src/app";

export { default } from "../src/worker";
