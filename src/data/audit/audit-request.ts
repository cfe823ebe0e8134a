import type { Database } from "@/data/client";

/** What a request's writes record in the audit log besides their principal: which operation, from where. */
export interface AuditRequest {
  operationId: string | null;
  /** The caller's IP country (`request.cf.country`, ISO 3166-1 alpha-2), when the edge knows it. */
  ipCountry: string | null;
}

const requestOf = new WeakMap<Database, AuditRequest>();

/** Marks a request's database session: every write batch on it records this request's operation and country. */
export function linkAuditRequest(db: Database, request: AuditRequest) {
  requestOf.set(db, request);
}

/** The request a database session belongs to (none: a background job's, which records operation and country as null). */
export const auditRequestOf = (db: Database): AuditRequest | undefined => requestOf.get(db);
