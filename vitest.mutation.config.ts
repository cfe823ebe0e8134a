import { defineConfig, mergeConfig } from "vitest/config";
import domainConfig from "./vitest.domain.config";

/**
 * The domain's tests as Stryker runs them, once per mutant (`npm run test:mutation`, stryker.config.json): the same
 * files as vitest.domain.config.ts, with fast-check capped (test/helpers/fast-check-under-mutation.ts) so a property
 * costs tens of runs per mutant, not thousands, and the test files of one run share one worker (isolate: false) instead of
 * a fresh worker per file: the domain is pure, and every run (one mutant) still starts a fresh worker, so nothing a mutant
 * leaves in a module cache reaches the next mutant. The initial coverage run takes 22 s instead of 60–100 s.
 */
export default mergeConfig(
  domainConfig,
  defineConfig({
    test: { isolate: false },
    resolve: {
      alias: [{ find: /^fast-check$/, replacement: `${import.meta.dirname}/test/helpers/fast-check-under-mutation.ts` }],
    },
  }),
);
