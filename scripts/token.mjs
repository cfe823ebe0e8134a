// Prints a partner token signed with the committed development key (local use only: never configure it in production).
// Each run signs a fresh token with a new random `jti`: the exchange takes each token once (a replay is 401 TOKEN_REPLAYED).
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { importJWK, SignJWT } from "jose";

const PARTNER_ID = "dev-partner";
const KEY_PATH = join(import.meta.dirname, "..", "dev", "dev-partner.private.jwk.json");
const USAGE =
  "Usage: npm run token -- [--org ID] [--employee ID | --external-employee ID] [--scopes LIST] [--ttl SECONDS]\n" +
  "  --org                organizationId claim (omit for a partner-level token)\n" +
  "  --employee           employeeId claim: a staff member id (needs --org)\n" +
  "  --external-employee  externalEmployeeId claim: the partner's id for the staff member (needs --org)\n" +
  "  --scopes             scopes claim, comma- or space-separated (e.g. '*:read' or 'timesheets:read,pay:read')\n" +
  "  --ttl                seconds until the token expires (default 300)";

function fail(message) {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function readOptions() {
  try {
    return parseArgs({
      options: {
        org: { type: "string" },
        employee: { type: "string" },
        "external-employee": { type: "string" },
        scopes: { type: "string" },
        ttl: { type: "string", default: "300" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    return fail(error.message);
  }
}

const options = readOptions();
if (options.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (options.employee !== undefined && options["external-employee"] !== undefined) {
  fail("Pass either --employee or --external-employee, not both.");
}
if ((options.employee !== undefined || options["external-employee"] !== undefined) && options.org === undefined) {
  fail("An employee token needs --org.");
}
for (const name of ["org", "employee", "external-employee", "scopes"]) {
  if (options[name] === "") fail(`--${name} needs a value.`);
}
if (!/^[1-9][0-9]*$/.test(options.ttl)) fail("--ttl must be a positive whole number of seconds.");

const claims = {};
if (options.org !== undefined) claims.organizationId = options.org;
if (options.employee !== undefined) claims.employeeId = options.employee;
if (options["external-employee"] !== undefined) claims.externalEmployeeId = options["external-employee"];
if (options.scopes !== undefined) claims.scopes = options.scopes.split(/[\s,]+/).filter(Boolean);

const jwk = JSON.parse(readFileSync(KEY_PATH, "utf8"));
const now = Math.floor(Date.now() / 1000);
const token = await new SignJWT(claims)
  .setProtectedHeader({ alg: "ES256", kid: jwk.kid, typ: "JWT" })
  .setIssuer(PARTNER_ID)
  .setIssuedAt(now)
  .setJti(randomUUID())
  .setExpirationTime(now + Number(options.ttl))
  .sign(await importJWK(jwk, "ES256"));
process.stdout.write(`${token}\n`);
