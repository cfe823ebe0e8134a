import { decodeKeyCursor, encodeKeyCursor } from "@/data/key-cursor";
import type { AppRouteHandler } from "@/platform/http/env";
import { pageOf } from "@/platform/http/pagination";
import { auditEntries } from "./audit-log.data";
import type * as routes from "./audit-log.routes";
import { serializeAuditEntry } from "./audit-log.schemas";

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const query = c.req.valid("query");
  const after = query.cursor ? Number(decodeKeyCursor(query.cursor, /^([0-9]{1,15})$/)[0]) : 0;
  const rows = await auditEntries(c.var.db, organization_id, after, query);
  const page = pageOf(c, rows, query.limit, (last) => ({ cursor: encodeKeyCursor(last.sequence) }));
  return c.json(page.map(serializeAuditEntry), 200);
};
