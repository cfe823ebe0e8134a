import { defineConfig, mergeConfig } from "vitest/config";
import domainConfig from "./vitest.domain.config";

/**
 * The domain's tests as Stryker runs them, once per mutant (`npm run test:mutation`, stryker.config.json): the same
 * files as vitest.domain.config.ts, with fast-check capped (test/helpers/fast-check-under-mutation.ts) so a property
 * costs tens of runs per mutant, not thousands.
 */
export default mergeConfig(
  domainConfig,
  defineConfig({
    resolve: {
      alias: [{ find: /^fast-check$/, replacement: `${import.meta.dirname}/test/helpers/fast-check-under-mutation.ts` }],
    },
  }),
);
