// Copies the API reference's browser bundle into the Worker's static assets, so /api/docs needs no CDN.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const packageDir = join(root, "node_modules", "@scalar", "api-reference");
const target = join(root, "public", "api", "docs");
mkdirSync(target, { recursive: true });
copyFileSync(join(packageDir, "dist", "browser", "standalone.js"), join(target, "scalar.js"));
