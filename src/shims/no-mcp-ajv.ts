// Stands in for the MCP SDK's default JSON Schema validator (validation/ajv-provider.js, with Ajv ≈116 KiB minified) in
// the deployed bundle (wrangler.toml [alias]): the /mcp server passes its own (src/features/mcp/mcp-server.ts), and
// Ajv's validators need `new Function`, which Workers refuse.
export class AjvJsonSchemaValidator {
  getValidator(): never {
    throw new Error("The MCP SDK's Ajv validator is not bundled (wrangler.toml [alias])");
  }
}
