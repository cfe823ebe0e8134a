import { createMiddleware } from "hono/factory";
import { createDatabase } from "../lib/db";
import type { AppBindings } from "../lib/types";

export const database = createMiddleware<AppBindings>(async (c, next) => {
  c.set("db", createDatabase(c.env.DB));
  await next();
});
