import { type AuditRequest, linkAuditRequest } from "@/data/audit/audit-request";
import { createDatabase, type Database } from "./client";
import { routedShard } from "./shard-routes";
import { DIRECTORY_SHARD, shardBinding, shardOfOrganization } from "./shards";

/** A bookmark the client sent, and the shard it came from. */
export interface SentBookmark {
  shard: string;
  bookmark: string;
}

/**
 * A request's D1 sessions: at most one per database it touches, each opened on its first query (a request that
 * never reads, as the OpenAPI document or a refusal, touches no binding) and anchored once. A client's bookmark
 * anchors only the session of the database it came from (it then reads at least what that bookmark saw: its own
 * writes); it means nothing to another database (after a move, the copy was verified complete before the flip).
 */
export class RequestDatabases {
  private readonly sessions = new Map<string, D1DatabaseSession>();
  private readonly databases = new Map<string, Database>();
  /** The database whose bookmark the response carries: the one the request's tenant queries ran on. */
  answering = DIRECTORY_SHARD;
  /** What the request's writes record in the audit log (the database middleware fills it in): every session shares it. */
  readonly audit: AuditRequest = { operationId: null, ipCountry: null };

  constructor(
    private readonly env: Env,
    private readonly sent: SentBookmark | undefined,
    private readonly constraint: () => D1SessionConstraint,
  ) {}

  private anchor(shard: string): D1SessionBookmark | D1SessionConstraint {
    return this.sent?.shard === shard ? this.sent.bookmark : this.constraint();
  }

  /** drizzle over this request's session on `shard`. */
  of(shard: string): Database {
    let db = this.databases.get(shard);
    if (!db) {
      const open = () => {
        let session = this.sessions.get(shard);
        if (!session) {
          session = shardBinding(this.env, shard).withSession(this.anchor(shard));
          this.sessions.set(shard, session);
        }
        return session;
      };
      db = createDatabase({
        prepare: (sql) => open().prepare(sql),
        batch: (statements) => open().batch(statements),
        getBookmark: () => this.sessions.get(shard)?.getBookmark() ?? null,
      } as D1DatabaseSession);
      this.databases.set(shard, db);
      linkAuditRequest(db, this.audit);
    }
    return db;
  }

  /**
   * The shard holding `organizationId` (null: none), from the directory on a session of its own that starts at the
   * nearest replica (or at the client's bookmark when that is DB's): an entry changes only when an organization is
   * created or moved, so the isolate keeps what it read for a few seconds (data/shard-routes). One shard: no read at all.
   */
  shardOf(organizationId: string): Promise<string | null> {
    const anchor = this.sent?.shard === DIRECTORY_SHARD ? this.sent.bookmark : "first-unconstrained";
    return routedShard(this.env, organizationId, () => shardOfOrganization(this.env, organizationId, anchor), {
      bookmarkShard: this.sent?.shard,
    });
  }

  /** The response's bookmark, naming its database; else the one the client sent, unchanged. */
  bookmark(sentHeader: string | undefined): string | undefined {
    const session = this.sessions.get(this.answering);
    const bookmark = session?.getBookmark();
    return bookmark ? `${this.answering}:${bookmark}` : sentHeader;
  }
}
