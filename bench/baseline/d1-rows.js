// Bench-only D1 copy endpoints, shared by the baseline Worker and bench/counting-entry.ts (never by src/):
//   GET  /__bench/dump  -> every application table's rows, tables in foreign-key order
//   POST /__bench/load  <- that same document, inserted with multi-row INSERTs of at most 100 bound values each
//   POST /__bench/exec  <- {sql, params}: one statement, run as is (the schedules scenario resets its drafts with it)
// The bench seeds our Worker through its API, then copies the rows into the baseline's database this way, so both
// Workers run the same statements against the same data. Only loopback servers started by the bench expose them.

/** D1 refuses statements with more than 100 bound parameters. */
export const MAX_BOUND_PARAMETERS = 100;
/** Statements per `batch` call while loading (one round trip, one transaction each). */
const STATEMENTS_PER_BATCH = 50;

const quote = (name) => `"${String(name).replaceAll('"', '""')}"`;

async function applicationTables(db) {
  const { results } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' " +
        "AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name <> 'd1_migrations' ORDER BY name",
    )
    .all();
  return results.map((r) => r.name);
}

/** Parents before children, so that inserting in this order satisfies D1's enforced foreign keys. */
async function inForeignKeyOrder(db, tables) {
  const parents = new Map();
  for (const table of tables) {
    const { results } = await db.prepare(`SELECT "table" AS parent FROM pragma_foreign_key_list(?)`).bind(table).all();
    parents.set(table, new Set(results.map((r) => r.parent).filter((p) => p !== table && tables.includes(p))));
  }
  const ordered = [];
  const visit = (table, path = new Set()) => {
    if (ordered.includes(table) || path.has(table)) return;
    path.add(table);
    for (const parent of parents.get(table) ?? []) visit(parent, path);
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

export async function dumpTables(db) {
  const tables = await inForeignKeyOrder(db, await applicationTables(db));
  const out = [];
  for (const table of tables) {
    const result = await db.prepare(`SELECT * FROM ${quote(table)} ORDER BY rowid`).raw({ columnNames: true });
    const [columns = [], ...rows] = result;
    out.push({ table, columns, rows });
  }
  return { tables: out };
}

export async function loadTables(db, document) {
  const known = new Set(await applicationTables(db));
  const statements = [];
  let rowCount = 0;
  for (const { table, columns, rows } of document.tables) {
    if (!known.has(table)) throw new Error(`unknown table ${table}`);
    if (rows.length === 0 || columns.length === 0) continue;
    const perStatement = Math.max(1, Math.floor(MAX_BOUND_PARAMETERS / columns.length));
    const head = `INSERT INTO ${quote(table)} (${columns.map(quote).join(", ")}) VALUES `;
    const tuple = `(${columns.map(() => "?").join(", ")})`;
    for (let i = 0; i < rows.length; i += perStatement) {
      const chunk = rows.slice(i, i + perStatement);
      statements.push(db.prepare(head + chunk.map(() => tuple).join(", ")).bind(...chunk.flat()));
      rowCount += chunk.length;
    }
  }
  for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) {
    await db.batch(statements.slice(i, i + STATEMENTS_PER_BATCH));
  }
  return { rows: rowCount, statements: statements.length };
}

/** Answers the bench's copy endpoints, or null for any other request. */
export async function benchCopyEndpoint(request, db) {
  const { pathname } = new URL(request.url);
  if (pathname === "/__bench/dump" && request.method === "GET") return Response.json(await dumpTables(db));
  if (pathname === "/__bench/load" && request.method === "POST") {
    try {
      return Response.json(await loadTables(db, await request.json()));
    } catch (error) {
      return Response.json({ error: String(error) }, { status: 500 });
    }
  }
  if (pathname === "/__bench/exec" && request.method === "POST") {
    const { sql, params = [] } = await request.json();
    const { meta } = await db
      .prepare(sql)
      .bind(...params)
      .run();
    return Response.json({ changes: meta.changes });
  }
  return null;
}
