import { z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { authorize } from "@/auth/authorize";
import { conditionalGet } from "@/platform/http/conditional";
import type { AppBindings } from "@/platform/http/env";
import { IfMatchHeaders, IfNoneMatchHeaders, jsonBody, jsonContent, notModified, problems, withETag } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { Job } from "@/wire/job.schemas";
import {
  BULK_COPY_IN_REQUEST_MAX,
  BulkCopyBody,
  BulkCopyResult,
  EligibilityQuery,
  EligibilityRow,
  EntryParams,
  EntryRemoveQuery,
  LocationParams,
  PublishBody,
  PublishDryRunResult,
  PublishResult,
  ScheduleEntry,
  ScheduleEntryCreate,
  ScheduleEntryPatch,
  ScheduleListQuery,
} from "./schedules.schemas";

const conditional = createMiddleware<AppBindings>((c, next) => conditionalGet(c, next));
const tags = ["Schedules"];
const path = "/api/organizations/{organizationId}/locations/{locationId}/schedules";
const readPublished = authorize("SCHEDULE_READ", { asThemself: true });
const read = authorize("SCHEDULE_READ");
const write = authorize("SCHEDULE_WRITE");
const selfNote = " Needs SCHEDULE_READ, except that a staff member without it reads the published schedule of their own locations.";
const timeNote =
  " startTime/endTime are local wall-clock times written with Z; without utcOffset they are read in the location's zone " +
  "(DST-correct). An entry ends after it starts, lasts at most 24 hours, names an active staff member assigned to the " +
  "location, a role and break types of the location (else 400 naming the field). 409 `SCHEDULE_OVERLAP` when it overlaps " +
  "another entry (draft or published) of the staff member, 409 `TIME_OFF_CONFLICT` on their approved time off, 409 " +
  "`WORKER_UNAVAILABLE` on an UNAVAILABLE occurrence of their availability unless `ignoreAvailability` is true.";
const workingTimeNote =
  " Working time: at a location with a working-time pack (…/locations/{locationId}/working-time) a published entry is " +
  "judged with the worker's other published entries and worked shifts (eight days either side) by the pack in effect on " +
  "its date — rest between shifts (and in each day, where the pack sets it: Ontario), daily and weekly maximums, a minor's hours (age from birthDate on the date worked, " +
  "school days from the location's school terms) — and refused with 409 `WORKING_TIME_CONFLICT` whose `violations` " +
  "list each rule, limit, actual, unit, source and the scheduleEntryIds and shiftIds involved, unless the body carries " +
  "`workingTimeOverride: {reason}` from a caller with WORKING_TIME_OVERRIDE (403 without it): the entry then keeps " +
  "the reason, the caller and the violations in `workingTimeOverride`, which its event carries. Drafts are judged at publish. " +
  "The judgement holds under concurrency: the write's own batch re-checks that the worker's published entries and worked " +
  "shifts it judged are unchanged, so two concurrent writes that together break a rule never both land; the one that " +
  "loses is 409 `WORKING_TIME_CONFLICT`, nothing written, its `violations` judged again (empty when the change that beat " +
  "it breaks nothing: retry).";
const changeLogNote =
  " Fair Workweek: at a location with a rule pack (…/locations/{locationId}/fair-workweek), a change of a published " +
  "entry inside the pack's notice window (less than noticeDays days before the earlier of its original and new start; " +
  "exactly noticeDays days is outside) is recorded in the change log (GET /organizations/{organization_id}/schedule-changes) " +
  "in this write's own batch, with a `schedule_change.recorded` event each: a new published entry ADDED; a later end or " +
  "earlier start EXTENDED; times within the old ones SHORTENED; other new times MOVED; a delete CANCELLED; another " +
  "staff member REASSIGNED for the one losing it and ADDED for the one gaining it. Each carries the premium the pack " +
  "prices it at (paid as a PREDICTABILITY pay line dated by the entry's original date), unless the write names an " +
  "`exemption` (PATCH body; DELETE query), which is recorded with `changeReason` and earns nothing. An entry changed " +
  "by another write after this one read it: 412 PRECONDITION_FAILED, nothing written.";
const frozenNote =
  " A write touching a date a closed pay period froze (any minute of the entry's old or new times, in the entry's " +
  "local dates; every date of every workweek overlapping a closed period) is 409 `PAY_PERIOD_CLOSED` naming " +
  "`periodId`, and nothing is written: its Fair Workweek premiums would change the closed period's pay. Reopen it first.";
const listNote =
  "Entries starting in [startDate, endDate] (local dates of the location, inclusive, or ISO instants), keyset-paged " +
  'by id with `limit`/`cursor` and `Link: rel="next"`; `updatedSince` for incremental sync.';

export const list = defineRoute({
  method: "get",
  path,
  operationId: "listScheduleEntries",
  flags: { scope: "organization", list: true },
  tags,
  summary: "List all schedule entries",
  description: `The published schedule. ${listNote}${selfNote}`,
  middleware: [readPublished] as const,
  request: { params: LocationParams, query: ScheduleListQuery },
  responses: { 200: jsonContent(z.array(ScheduleEntry), "A page of published entries"), ...problems("LOCATION_NOT_FOUND") },
});

export const getOne = defineRoute({
  method: "get",
  path: `${path}/{id}`,
  operationId: "getScheduleEntry",
  flags: { scope: "organization" },
  tags,
  summary: "Get details for a schedule",
  description: `A published entry (a draft's id is 404 here).${selfNote}`,
  middleware: [readPublished, conditional] as const,
  request: { params: EntryParams, headers: IfNoneMatchHeaders },
  responses: {
    200: withETag(jsonContent(ScheduleEntry, "The entry")),
    ...notModified,
    ...problems("LOCATION_NOT_FOUND", "SCHEDULE_ENTRY_NOT_FOUND"),
  },
});

export const create = defineRoute({
  method: "post",
  path,
  operationId: "createScheduleEntry",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create schedule entry",
  description: `Creates a published entry directly.${changeLogNote}${timeNote}${frozenNote}${workingTimeNote}`,
  middleware: [write] as const,
  request: { params: LocationParams, body: jsonBody(ScheduleEntryCreate) },
  responses: {
    201: withETag(jsonContent(ScheduleEntry, "The published entry")),
    ...problems(
      "PAY_PERIOD_CLOSED",
      "LOCATION_NOT_FOUND",
      "SCHEDULE_OVERLAP",
      "TIME_OFF_CONFLICT",
      "WORKER_UNAVAILABLE",
      "REST_CONSENT_REQUIRED",
      "WORKING_TIME_CONFLICT",
    ),
  },
});

export const patch = defineRoute({
  method: "patch",
  path: `${path}/{id}`,
  operationId: "updateScheduleEntry",
  flags: { scope: "organization" },
  tags,
  summary: "Update schedule entry",
  description:
    "Changes only the named fields; times are read with the body's utcOffset, else the entry's. A change of the " +
    "entry's start, end or staff member ends the live (PENDING or ACCEPTED) shift requests naming it, in the same " +
    "batch: CANCELLED with cancelReason ENTRY_CHANGED, each with a `shift_request.cancelled` event." +
    changeLogNote +
    timeNote +
    frozenNote +
    workingTimeNote,
  middleware: [write] as const,
  request: { params: EntryParams, body: jsonBody(ScheduleEntryPatch), headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(ScheduleEntry, "The updated entry")),
    ...problems(
      "PAY_PERIOD_CLOSED",
      "LOCATION_NOT_FOUND",
      "SCHEDULE_ENTRY_NOT_FOUND",
      "SCHEDULE_OVERLAP",
      "TIME_OFF_CONFLICT",
      "WORKER_UNAVAILABLE",
      "PRECONDITION_FAILED",
      "REST_CONSENT_REQUIRED",
      "WORKING_TIME_CONFLICT",
    ),
  },
});

export const remove = defineRoute({
  method: "delete",
  path: `${path}/{id}`,
  operationId: "deleteScheduleEntry",
  flags: { scope: "organization" },
  tags,
  summary: "Remove schedule entry",
  description:
    "Soft delete: the entry leaves the schedule and answers with `deletedAt` set. The live (PENDING or ACCEPTED) shift " +
    "requests naming it end in the same batch: CANCELLED with cancelReason ENTRY_DELETED, each with a " +
    "`shift_request.cancelled` event." +
    changeLogNote +
    frozenNote,
  middleware: [write] as const,
  request: { params: EntryParams, query: EntryRemoveQuery, headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(ScheduleEntry, "The removed entry")),
    ...problems("PAY_PERIOD_CLOSED", "SCHEDULE_ENTRY_NOT_FOUND", "PRECONDITION_FAILED"),
  },
});

export const eligibility = defineRoute({
  method: "get",
  path: `${path}/eligibility`,
  operationId: "getScheduleEligibility",
  flags: { scope: "organization" },
  tags,
  summary: "Who fits a slot",
  description:
    "Every active staff member assigned to the location (with `roleId`, only those holding that role) for the slot " +
    "[startTime, endTime) (local wall-clock, read in the location's zone): `eligible`, with the `reasons` when not — " +
    "UNAVAILABLE (an UNAVAILABLE occurrence of their availability overlaps it: the occurrences `GET …/availability` " +
    "lists, less the rule's `exdates`, from a month back to at least two years ahead of now), TIME_OFF (approved time off), " +
    "SCHEDULE_OVERLAP (another live entry, draft or published) —, `preferred` (a PREFERRED occurrence overlaps it), " +
    "the minutes of their entries starting in the slot's workweek (the pay rules' workweek at the location) and the " +
    "weekly overtime the slot would add under those rules (daily overtime is not projected). Ordered eligible first, " +
    "then preferred, then fewest minutes scheduled. Not paged: one row per staff member of the location, whom a " +
    "picker shows all at once. Needs SCHEDULE_WRITE.",
  middleware: [write] as const,
  request: { params: LocationParams, query: EligibilityQuery },
  responses: { 200: jsonContent(z.array(EligibilityRow), "The staff members, ranked"), ...problems("LOCATION_NOT_FOUND") },
});

export const bulkCopy = defineRoute({
  method: "post",
  path: `${path}/bulk-copy`,
  operationId: "bulkCopyScheduleEntries",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Bulk copy schedule shifts",
  description:
    "Copies the live entries (drafts and published) starting on the local dates fromStartDate…fromEndDate (at most 62 " +
    "days) to the range starting at toStartDate, keeping each entry's local wall-clock times in its zone across DST " +
    "changes; as drafts unless `asDrafts` is false. Copies that would overlap an entry of their staff member or fall " +
    "on approved time off or an UNAVAILABLE occurrence of their availability (unless `ignoreAvailability`) are skipped " +
    `and listed in \`skipped\`; the rest are written in one atomic batch when they are at most ${BULK_COPY_IN_REQUEST_MAX} (D1's queries per ` +
    "request; the deployment's BULK_COPY_IN_REQUEST_MAX may lower that limit; skipped copies do not count). A copy " +
    "that would write more is planned the same way — every 400 below answered before anything is written, each copy's " +
    "id fixed — then answers **202 with a BULK job** (subject `schedule-copy`; `Location`: `…/jobs/{id}`; " +
    "`job.created`, then `job.succeeded` or `job.failed`) that writes the copies in pages, steps `copy-1` … `copy-N` " +
    "then `finish`: a page holds each of its workers' copies together (at most 500 copies, or one worker's alone) and " +
    "is one atomic batch with its `schedule_entry.created` events and Fair Workweek change rows, retried and " +
    "idempotent (a page whose copies exist is done). The whole copy is not atomic: a page refused when written (the " +
    "409s below: an entry written meanwhile, a closed pay period, a rest consent, a working-time rule broken since " +
    "the plan) ends the job FAILED with that problem code, the pages before it kept (copy the rest again: copies " +
    "that now overlap are skipped); the job does not list the skipped copies. An `employeeIds` entry that is no staff member of " +
    "the organization is 400 naming it. Published copies (`asDrafts: false`) are schedule changes under the " +
    "location's Fair Workweek pack, as a published create is: each starting inside its notice window is recorded as " +
    "ADDED (`schedule_change.recorded`), and one inside a rest window its pack requires consent for refuses the whole " +
    "copy with 409 REST_CONSENT_REQUIRED unless the worker has a standing REST consent (one given for no entry: a copy " +
    "cannot name one). At a location with a working-time pack, published copies are judged as a publish's drafts are " +
    "(per worker, together with their published entries, worked shifts and the other copies): each copy that would " +
    "break a rule (rest, daily or weekly maximum, a minor's hours) is skipped and listed in `skipped` as " +
    "WORKING_TIME_CONFLICT with its `violations`, unless the body carries `workingTimeOverride: {reason}` from a caller " +
    "with WORKING_TIME_OVERRIDE (then written, each keeping the override). If a worker's published time changes " +
    "between the check and the write, the copy is refused whole with 409 WORKING_TIME_CONFLICT (judged again; nothing " +
    "written): retry it." +
    frozenNote,
  middleware: [write] as const,
  request: { params: LocationParams, body: jsonBody(BulkCopyBody) },
  responses: {
    200: jsonContent(BulkCopyResult, "The copies made and those skipped"),
    202: {
      description:
        "More copies than one request writes: the job writing them (`Location`: its URL). Each page of copies (each " +
        "worker's copies together) is one atomic batch; the whole copy is not: a page refused at write time ends the " +
        "job FAILED with its problem code, the pages before it kept.",
      headers: z.object({ Location: z.string().openapi({ description: "The job's URL" }) }),
      content: { "application/json": { schema: Job } },
    },
    ...problems(
      "PAY_PERIOD_CLOSED",
      "LOCATION_NOT_FOUND",
      "SCHEDULE_OVERLAP",
      "TIME_OFF_CONFLICT",
      "WORKER_UNAVAILABLE",
      "REST_CONSENT_REQUIRED",
      "WORKING_TIME_CONFLICT",
    ),
  },
});

export const publish = defineRoute({
  method: "post",
  path: `${path}/publish`,
  operationId: "publishSchedule",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Publish draft schedule",
  description:
    "Publishes every draft entry and draft open shift of the location starting in [startDate, endDate], and applies " +
    "the draft assignments of those open shifts (each becomes a published entry), in one atomic batch: if any part is " +
    "refused (409), nothing is published. A draft entry on its staff member's approved time off stays a draft and is " +
    "reported in `skipped` (TIME_OFF_CONFLICT) while the rest publishes; so does a draft entry on an UNAVAILABLE " +
    "occurrence of its staff member's availability (WORKER_UNAVAILABLE; availability added after the draft counts), " +
    "unless the draft's last create or update carried `ignoreAvailability: true`. Both are checked by the publish " +
    "batch itself. An empty range answers zeros; publishing again publishes nothing twice. Fair Workweek: drafts " +
    "starting inside the notice window of the pack in effect on their own date (the location's setting is " +
    "effective-dated: a draft dated before a pack change is judged by the pack it had then), and entries of applied " +
    "assignments, are first published inside it and are recorded as ADDED changes with their premiums, in the same " +
    "batch (GET …/schedule-changes). The publish's one `schedule.published` event carries them (`changes`, " +
    "`premiumHours`, `premiumAmount` in total; zeros when it recorded none) rather than a `schedule_change.recorded` " +
    "each; every other change (create, PATCH, DELETE, claims, approvals) still records its own " +
    "`schedule_change.recorded` (`schedule_changes.recorded` was removed on 2026-12-06). The dry run answers the same " +
    "changes and premiums as the publish records, priced by the same bands. " +
    "`dryRun: true` answers 200 with what the publish would record — the changes, and per employee and in total " +
    "their count, premium hours (paid at each workweek's regular rate) and premiumAmount, what they would cost: flat " +
    "amounts plus the hours at the regular rate schedule cost projects for their workweek (drafts included), marked " +
    "`amountProjected: true` when it prices hours (a Seattle addition: 1 h × that rate) — and writes nothing. Rest " +
    "between shifts: where the pack requires consent (rest.consentRequired), a draft entry starting less than " +
    "rest.minHours after another live entry of its worker ends (or ending less than that before one starts) is 409 " +
    "REST_CONSENT_REQUIRED and nothing is published, unless the worker gave a live REST consent for that entry (POST " +
    "…/staffmembers/{id}/consents with its scheduleEntryId) or a general one (no scheduleEntryId: create and update " +
    "take it when named by consentId; the publish names none, so any of the worker's counts): checked by the publish " +
    "statement itself, as create and update check it. The dry run lists those drafts in `restConsentRequired`." +
    frozenNote +
    " Working time: at a location with a working-time pack, the drafts to publish and the entries the applied " +
    "open-shift assignments become are judged with their workers' published entries, worked shifts and each other " +
    "(each worker's together, as create judges one entry); any violation refuses the whole publish with 409 " +
    "`WORKING_TIME_CONFLICT` listing them (naming existing entries only), unless the body carries " +
    "`workingTimeOverride: {reason}` from a caller with WORKING_TIME_OVERRIDE, when each such entry (draft or " +
    "assignment) keeps its violations, the reason and the caller in `workingTimeOverride`. The dry run lists them per " +
    "entry in `workingTimeViolations` (an assignment's by preferenceId and openShiftId). A worker's published time " +
    "changed between the check and the write (or a draft added meanwhile) refuses the publish whole with 409 " +
    "`WORKING_TIME_CONFLICT`, judged again: retry.",
  middleware: [write] as const,
  request: { params: LocationParams, body: jsonBody(PublishBody) },
  responses: {
    200: jsonContent(z.union([PublishResult, PublishDryRunResult]), "What was published, or (dryRun) what would be recorded"),
    ...problems(
      "PAY_PERIOD_CLOSED",
      "LOCATION_NOT_FOUND",
      "SCHEDULE_OVERLAP",
      "TIME_OFF_CONFLICT",
      "PREFERENCE_NOT_PENDING",
      "OPEN_SHIFT_CHANGED",
      "REST_CONSENT_REQUIRED",
      "WORKING_TIME_CONFLICT",
    ),
  },
});

export const listDrafts = defineRoute({
  method: "get",
  path: `${path}/drafts`,
  operationId: "listDraftScheduleEntries",
  flags: { scope: "organization", list: true },
  tags,
  summary: "List all draft schedule entries",
  description: `${listNote} Needs SCHEDULE_READ.`,
  middleware: [read] as const,
  request: { params: LocationParams, query: ScheduleListQuery },
  responses: { 200: jsonContent(z.array(ScheduleEntry), "A page of draft entries"), ...problems("LOCATION_NOT_FOUND") },
});

export const getDraft = defineRoute({
  method: "get",
  path: `${path}/drafts/{id}`,
  operationId: "getDraftScheduleEntry",
  flags: { scope: "organization" },
  tags,
  summary: "Get details for a draft entry",
  description: "A draft entry of the location (a published entry's id is 404 here), with its ETag. Needs SCHEDULE_READ.",
  middleware: [read, conditional] as const,
  request: { params: EntryParams, headers: IfNoneMatchHeaders },
  responses: { 200: withETag(jsonContent(ScheduleEntry, "The draft entry")), ...notModified, ...problems("SCHEDULE_ENTRY_NOT_FOUND") },
});

export const createDraft = defineRoute({
  method: "post",
  path: `${path}/drafts`,
  operationId: "createDraftScheduleEntry",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create draft schedule entry",
  description: `A draft, visible to staff once published.${timeNote}${frozenNote}`,
  middleware: [write] as const,
  request: { params: LocationParams, body: jsonBody(ScheduleEntryCreate) },
  responses: {
    201: withETag(jsonContent(ScheduleEntry, "The draft entry")),
    ...problems(
      "PAY_PERIOD_CLOSED",
      "LOCATION_NOT_FOUND",
      "SCHEDULE_OVERLAP",
      "TIME_OFF_CONFLICT",
      "WORKER_UNAVAILABLE",
      "REST_CONSENT_REQUIRED",
    ),
  },
});

export const patchDraft = defineRoute({
  method: "patch",
  path: `${path}/drafts/{id}`,
  operationId: "updateDraftScheduleEntry",
  flags: { scope: "organization" },
  tags,
  summary: "Update draft entry",
  description: `Changes only the named fields.${timeNote}${frozenNote}`,
  middleware: [write] as const,
  request: { params: EntryParams, body: jsonBody(ScheduleEntryPatch), headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(ScheduleEntry, "The updated draft")),
    ...problems(
      "PAY_PERIOD_CLOSED",
      "LOCATION_NOT_FOUND",
      "SCHEDULE_ENTRY_NOT_FOUND",
      "SCHEDULE_OVERLAP",
      "TIME_OFF_CONFLICT",
      "WORKER_UNAVAILABLE",
      "PRECONDITION_FAILED",
    ),
  },
});

export const removeDraft = defineRoute({
  method: "delete",
  path: `${path}/drafts/{id}`,
  operationId: "deleteDraftScheduleEntry",
  flags: { scope: "organization" },
  tags,
  summary: "Remove draft schedule entry",
  description: `Soft-deletes a draft entry; with If-Match, only the version it names (else 412). Needs SCHEDULE_WRITE.${frozenNote}`,
  middleware: [write] as const,
  request: { params: EntryParams, headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(ScheduleEntry, "The removed draft")),
    ...problems("PAY_PERIOD_CLOSED", "SCHEDULE_ENTRY_NOT_FOUND", "PRECONDITION_FAILED"),
  },
});

export type ListRoute = typeof list;
export type EligibilityRoute = typeof eligibility;
export type GetOneRoute = typeof getOne;
export type CreateRoute = typeof create;
export type PatchRoute = typeof patch;
export type RemoveRoute = typeof remove;
export type BulkCopyRoute = typeof bulkCopy;
export type PublishRoute = typeof publish;
export type ListDraftsRoute = typeof listDrafts;
export type GetDraftRoute = typeof getDraft;
export type CreateDraftRoute = typeof createDraft;
export type PatchDraftRoute = typeof patchDraft;
export type RemoveDraftRoute = typeof removeDraft;
