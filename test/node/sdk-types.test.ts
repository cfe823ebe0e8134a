import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateTypes } from "../../sdk/generate";
import { openApiDocument } from "./openapi-document";

const TYPES = join(import.meta.dirname, "../../sdk/src/api-types.ts");

describe("the SDK's types (sdk/src/api-types.ts)", () => {
  it("are what openapi-typescript generates from the served document (npm run sdk:generate rewrites them)", async () => {
    const { document } = await openApiDocument();
    await expect(await generateTypes(document)).toMatchFileSnapshot(TYPES);
  }, 180_000);
});
