// Moves an organization to another shard through the operator route, call after call until the move is done
// (docs/SCALING.md "Moving an organization"). Each call advances it by --pages pages and prints where it stands;
// interrupted, run the same command again: the move resumes where it stopped.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

const USAGE =
  "Usage: npm run shards:move -- --organization ID --to BINDING [--url URL] [--pages N] [--settle-seconds S]\n" +
  "       npm run shards:move -- --organization ID --abort [--url URL]\n" +
  "  --organization    the organization to move\n" +
  "  --to              the target shard: a D1 binding named in SHARDS (e.g. DB_SHARD_2)\n" +
  "  --abort           undo a move that has not flipped the directory yet\n" +
  "  --url             the Worker (default http://127.0.0.1:8787)\n" +
  "  --pages           pages of work per call (default 50)\n" +
  "  --settle-seconds  how long the freeze stands before the copy starts (default 10)\n" +
  "The operator secret is read from OPERATOR_SECRET, else from .dev.vars.";

function fail(message) {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      organization: { type: "string" },
      to: { type: "string" },
      abort: { type: "boolean", default: false },
      url: { type: "string", default: "http://127.0.0.1:8787" },
      pages: { type: "string", default: "50" },
      "settle-seconds": { type: "string", default: "10" },
      help: { type: "boolean", short: "h" },
    },
  }));
} catch (error) {
  fail(error.message);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!values.organization) fail("--organization is required.");
if (!values.to && !values.abort) fail("Name the target with --to, or --abort.");

function operatorSecret() {
  if (process.env.OPERATOR_SECRET) return process.env.OPERATOR_SECRET;
  const path = join(import.meta.dirname, "..", ".dev.vars");
  const line = existsSync(path) ? readFileSync(path, "utf8").match(/^OPERATOR_SECRET=(\S+)$/m) : null;
  if (!line) fail("No OPERATOR_SECRET in the environment or in .dev.vars.");
  return line[1];
}

const secret = operatorSecret();
const endpoint = new URL(`/operator/organizations/${encodeURIComponent(values.organization)}/move`, values.url);
const pages = Number(values.pages);
const settleSeconds = Number(values["settle-seconds"]);

async function call(body) {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
    body: JSON.stringify({ pages, settleSeconds, ...body }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    process.stderr.write(`${response.status}: ${answer.detail ?? JSON.stringify(answer)}\n`);
    process.exit(1);
  }
  return answer;
}

let state = await call(values.abort ? { abort: true } : { to: values.to });
for (;;) {
  const where = state.table ? ` ${state.table}` : "";
  process.stdout.write(`${state.step}${where}: ${state.rowsCopied} rows copied, ${state.rowsDeleted} deleted\n`);
  if (state.finished) break;
  // A freeze settling answers at once: wait a little instead of calling in a tight loop.
  if (state.step === "freeze") await new Promise((resolve) => setTimeout(resolve, 1000));
  state = await call({});
}
if (state.step === "failed") {
  process.stderr.write(`The move failed: ${state.error}\nFix the cause, then run with --abort (before the flip) and start again.\n`);
  process.exit(1);
}
process.stdout.write(`${state.organizationId}: ${state.step} (${state.source} -> ${state.target})\n`);
