import type { Env, MiddlewareHandler } from "hono";

/**
 * Middleware run as one layer of hono's chain: each layer is a `compose` dispatch of its own, and a punch passed 12
 * (issue 36). A response one of them returns is the answer, as hono makes it. Only for middleware whose refusals are
 * thrown where nothing after an outer one's `next()` needs to run on them: a refusal thrown here skips that work, where
 * hono answers it in its own layer first (src/app.ts says which are chained and why that holds).
 */
export function chain<E extends Env>(...middleware: MiddlewareHandler<E>[]): MiddlewareHandler<E> {
  return (c, next) => {
    const run = async (i: number): Promise<void> => {
      const handler = middleware[i];
      if (!handler) return next();
      const answer = await handler(c, () => run(i + 1));
      if (answer && !c.finalized) c.res = answer;
    };
    return run(0);
  };
}
