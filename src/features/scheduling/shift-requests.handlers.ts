import { requestNow } from "@/platform/http/clock";
import type { AppRouteHandler } from "@/platform/http/env";
import { pageOf } from "@/platform/http/pagination";
import { scopeAtLocation } from "./schedule-access.guards";
import {
  acceptShiftRequest,
  approveShiftRequest,
  cancelShiftRequest,
  createShiftRequest,
  declineShiftRequest,
  encodeShiftRequestCursor,
  findShiftRequest,
  listShiftRequests,
} from "./shift-requests.data";
import type * as routes from "./shift-requests.routes";
import { serializeShiftRequest } from "./shift-requests.schemas";

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { scope } = await scopeAtLocation(c);
  const query = c.req.valid("query");
  const now = await requestNow(c);
  const rows = await listShiftRequests(c.var.db, scope, query, now);
  const page = pageOf(c, rows, query.limit, (last) => ({ cursor: encodeShiftRequestCursor(last) }));
  return c.json(
    page.map((row) => serializeShiftRequest(row, now)),
    200,
  );
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { scope } = await scopeAtLocation(c);
  const now = await requestNow(c);
  return c.json(serializeShiftRequest(await createShiftRequest(c.var.db, scope, c.req.valid("json"), now), now), 201);
};

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  const { scope } = await scopeAtLocation(c);
  return c.json(serializeShiftRequest(await findShiftRequest(c.var.db, scope, c.req.valid("param").id), await requestNow(c)), 200);
};

const act =
  (run: typeof acceptShiftRequest): AppRouteHandler<routes.ActionRoute> =>
  async (c) => {
    const { scope } = await scopeAtLocation(c);
    const now = await requestNow(c);
    return c.json(serializeShiftRequest(await run(c.var.db, scope, c.req.valid("param").id, now), now), 200);
  };

export const accept = act(acceptShiftRequest);
export const approve: AppRouteHandler<routes.ApproveRoute> = async (c) => {
  const { scope } = await scopeAtLocation(c);
  const now = await requestNow(c);
  const override = c.req.valid("json")?.workingTimeOverride;
  return c.json(serializeShiftRequest(await approveShiftRequest(c.var.db, scope, c.req.valid("param").id, now, override), now), 200);
};
export const decline = act(declineShiftRequest);
export const cancel = act(cancelShiftRequest);
