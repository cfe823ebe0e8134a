import { checkStatement, D1_LIMITS, type D1LimitViolation, describeViolation } from "./d1-limits";
import { shardConfig } from "./shards";

/** A statement or an invocation that D1 in production would refuse (src/data/d1-limits.ts). */
export class D1LimitError extends Error {
  override name = "D1LimitError";
  constructor(
    readonly violation: D1LimitViolation,
    readonly sql?: string,
  ) {
    super(`${describeViolation(violation)}${sql ? `: ${sql.slice(0, 200)}` : ""}`);
  }
}

/** The queries one invocation has sent, over every binding it reaches D1 through. */
export interface QueryCount {
  queries: number;
}

const realStatement = new WeakMap<object, D1PreparedStatement>();

/** Checks one statement and counts it as `queries` of the invocation; throws (and logs) what D1 would refuse. */
function admit(count: QueryCount, sql: string, values: readonly unknown[], queries = 1): void {
  const violation = checkStatement(sql, values);
  if (violation) fail(new D1LimitError(violation, sql));
  count.queries += queries;
  if (count.queries > D1_LIMITS.queriesPerInvocation) {
    fail(new D1LimitError({ limit: "queriesPerInvocation", max: D1_LIMITS.queriesPerInvocation, actual: count.queries }, sql));
  }
}

function fail(error: D1LimitError): never {
  // The app answers an unexpected error as a bare 500: the log names the limit.
  console.error(error.message);
  throw error;
}

function limitedStatement(statement: D1PreparedStatement, sql: string, values: unknown[], count: QueryCount): D1PreparedStatement {
  const run =
    <T>(call: () => Promise<T>) =>
    () => {
      admit(count, sql, values);
      return call();
    };
  const limited = {
    bind: (...bound: unknown[]) => limitedStatement(statement.bind(...bound), sql, bound, count),
    first: (column?: string) => run(() => (column === undefined ? statement.first() : statement.first(column)))(),
    all: run(() => statement.all()),
    run: run(() => statement.run()),
    raw: (options?: { columnNames?: boolean }) => run(() => statement.raw(options as { columnNames: true }))(),
  };
  realStatement.set(limited, statement);
  statementSource.set(limited, { sql, values });
  return limited as unknown as D1PreparedStatement;
}

const statementSource = new WeakMap<object, { sql: string; values: unknown[] }>();

function limitedBatch<T>(statements: D1PreparedStatement[], count: QueryCount, send: (real: D1PreparedStatement[]) => Promise<T>) {
  for (const statement of statements) {
    const source = statementSource.get(statement);
    // A statement prepared outside the guard (none in the app) is counted but cannot be checked.
    admit(count, source?.sql ?? "", source?.values ?? []);
  }
  return send(statements.map((s) => realStatement.get(s) ?? s));
}

/** A request's D1 session under the guard, counting into the same invocation. */
function limitedSession(session: D1DatabaseSession, count: QueryCount): D1DatabaseSession {
  return {
    prepare: (sql: string) => limitedStatement(session.prepare(sql), sql, [], count),
    batch: (statements: D1PreparedStatement[]) => limitedBatch(statements, count, (real) => session.batch(real)),
    getBookmark: () => session.getBookmark(),
  } as unknown as D1DatabaseSession;
}

/**
 * A D1 binding that refuses, as production D1 would, a statement over D1's limits and the query that takes the
 * invocation over its budget (`count`, shared by every binding of one invocation). Local D1 enforces none of them.
 */
export function limitedD1(db: D1Database, count: QueryCount = { queries: 0 }): D1Database {
  return new Proxy(db, {
    get(target, property) {
      switch (property) {
        case "prepare":
          return (sql: string) => limitedStatement(target.prepare(sql), sql, [], count);
        case "batch":
          return (statements: D1PreparedStatement[]) => limitedBatch(statements, count, (real) => target.batch(real));
        case "exec":
          return (sql: string) => {
            const statements = sql.split(/;\s*(?:\n|$)/).filter((s) => s.trim() !== "");
            for (const statement of statements) admit(count, statement, []);
            return target.exec(sql);
          };
        case "withSession":
          return (anchor?: string) => limitedSession(target.withSession(anchor), count);
        default: {
          const value = Reflect.get(target, property, target);
          return typeof value === "function" ? value.bind(target) : value;
        }
      }
    },
  });
}

/**
 * The env of one invocation with each shard's D1 binding (SHARDS: DB, which also holds the directory, and the
 * others) under the guard, all counting into one budget of queries. Only tests and the bench ask for it
 * (D1_LIMITS_ENFORCED, src/worker.ts).
 */
export function limitedEnv(env: Env): Env {
  const count: QueryCount = { queries: 0 };
  const bindings = env as unknown as Record<string, unknown>;
  const limited: Record<string, D1Database> = {};
  for (const shard of shardConfig(env).shards) {
    const binding = bindings[shard] as D1Database | undefined;
    if (binding && typeof binding.prepare === "function") limited[shard] = limitedD1(binding, count);
  }
  return { ...env, ...limited };
}
