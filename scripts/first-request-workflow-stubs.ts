// Measurement only: wrangler.toml binds the app's Workflows, and wrangler refuses an entry that does not export their
// classes. The floors export these empty ones, so that they load nothing of the app.
import { WorkflowEntrypoint } from "cloudflare:workers";

export class PayCloseWorkflow extends WorkflowEntrypoint {
  async run(): Promise<void> {}
}

export class AccrualWorkflow extends WorkflowEntrypoint {
  async run(): Promise<void> {}
}

export class BulkWorkflow extends WorkflowEntrypoint {
  async run(): Promise<void> {}
}
