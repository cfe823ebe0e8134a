import { customFields } from "@db/schema";
import { guarded, whenDuplicateOf } from "@/data/write/constraint-problems";
import { conflict } from "@/problems/problem";

export const customFieldNameTaken = () =>
  conflict("CUSTOM_FIELD_NAME_TAKEN", "Another active custom field of this organization has that name. Nothing was written.");

/** Runs a custom field write, the unique index on the active names answered as 409 CUSTOM_FIELD_NAME_TAKEN. */
export const refusalsOfCustomField = <T>(write: Promise<T>) =>
  guarded(write, [whenDuplicateOf([customFields.organizationId, customFields.name], customFieldNameTaken)]);

/** The organization's custom fields, as the crud helpers (platform/crud) list, read and write them. */
export const customFieldRecords = customFields;
