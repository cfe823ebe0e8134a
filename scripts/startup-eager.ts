// Measurement only (scripts/startup-and-bundle.mjs): the Worker with what its first token exchange loads — the table
// of features and the platform (src/app.ts) and the auth feature — evaluated at startup rather than on that request.
// Its startup CPU minus the Worker's is what evaluating those modules costs a cold isolate's first request.
import "../src/app";
import "../src/features/auth/auth.index";

export { default } from "../src/worker";
