import openapiTS, { astToString } from "openapi-typescript";

/**
 * The SDK's types from the document the Worker serves: openapi-typescript with its defaults, as an integrator runs it
 * (`npx openapi-typescript …/api/openapi.json`). test/node/sdk-types.test.ts keeps `src/api-types.ts` equal to it
 * (`npm run sdk:generate` rewrites it), and test/node/client-types.test.ts type-checks examples/client.ts against it.
 */
export async function generateTypes(document: object): Promise<string> {
  return astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
}
