import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../drizzle/schema";

export const createDatabase = (binding: D1Database) => drizzle(binding, { schema });

export type Database = ReturnType<typeof createDatabase>;
