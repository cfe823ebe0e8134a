import { defineConfig } from "vitest/config";

/**
 * The pure domain's tests on Node alone, for mutation testing (`npm run test:mutation`, stryker.config.json):
 * src/domain imports nothing of the platform, so its tests need no workerd. `npm test` runs the same files in workerd.
 */
export default defineConfig({
  resolve: { alias: [{ find: /^@\//, replacement: `${import.meta.dirname}/src/` }] },
  // Stryker's coverage run instruments every file: on a busy machine a property test passes 5 s, and a timed-out dry
  // run stops the whole mutation run before it starts.
  test: { name: "domain", environment: "node", include: ["test/domain/**/*.test.ts"], testTimeout: 60_000 },
});
