import { readJob } from "@/data/jobs/jobs.data";
import type { AppRouteHandler } from "@/platform/http/env";
import { notFound } from "@/problems/problem";
import { serializeJob } from "@/wire/job.schemas";
import type * as routes from "./jobs.routes";

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const row = await readJob(c.var.db, organization_id, id);
  if (!row) throw notFound("Job");
  return c.json(serializeJob(row), 200);
};
