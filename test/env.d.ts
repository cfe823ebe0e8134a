import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** Runs per operation of the OpenAPI fuzz test; empty for its default. */
      FUZZ_RUNS: string;
    }
  }
}
