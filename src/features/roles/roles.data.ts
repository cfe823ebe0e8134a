import { roles } from "@db/schema";

/** The organization's roles, as the crud helpers (platform/crud) list, read and write them. */
export const roleRecords = roles;
