import { defineConfig } from "vitest/config";

/**
 * The pure domain's tests on Node alone, for mutation testing (`npm run test:mutation`, stryker.config.json):
 * src/domain imports nothing of the platform, so its tests need no workerd. `npm test` runs the same files in workerd.
 */
export default defineConfig({
  resolve: { alias: [{ find: /^@\//, replacement: `${import.meta.dirname}/src/` }] },
  test: { name: "domain", environment: "node", include: ["test/domain/**/*.test.ts"] },
});
