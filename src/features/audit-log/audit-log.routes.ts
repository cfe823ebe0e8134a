import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { jsonContent, OrganizationParams, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { AuditEntry, AuditLogQuery } from "./audit-log.schemas";

export const list = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/audit-log",
  operationId: "listAuditLog",
  flags: { scope: "organization", list: true },
  tags: ["Audit log"],
  summary: "Retrieve the organization's audit log",
  description:
    "Who changed what, when and from where: one entry per event a write recorded, written in that write's own " +
    "transaction (no write that records an event can leave its entry out), in the order of the writes. Each entry " +
    "names its actor (PARTNER: the partner's backend or its organization token; STAFF_MEMBER: a staff member's own " +
    "token; DEVICE: a kiosk, with `deviceId`; SYSTEM: a write with no person behind it, its id naming the job — " +
    "`attendance-pass` for the Cron's no-shows and automatic clock-outs, `pay-close-job` for a pay close run as a " +
    "job, `webhook-delivery` for an endpoint disabled after 3 days of failures, `accrual-pass` for the time-off " +
    "accrual pass's ledger entries (`time_off_policy.accrued`); OPERATOR: the platform's operator, id `operator`, " +
    "moving the organization between databases (`organization.moved`)), the operation (the document's " +
    "operationId; for SYSTEM, the request that ran the job, if any; null for OPERATOR), the event type and the " +
    "record (`resourceType`, `resourceId`, and `staffMemberId` when the record is a staff member's), and the caller's " +
    "IP country as Cloudflare's edge located it (`request.cf.country`; null where unknown). For records a person may " +
    "dispute — shifts (their breaks included), schedule entries, time-off requests, wage rates, pay periods and " +
    "approvals, attendance exceptions — `before` and `after` carry the record as the API answered it before and after " +
    "the write (`before` is null when the write created it, or when its last change predates the log); other " +
    "entries carry neither. A shift's history: `resourceType=shift&resourceId=<shift id>`; a worker's: " +
    "`staffMemberId=<id>` (with `resourceType=shift` for their shifts alone). Entries are immutable: no operation " +
    "changes or deletes one, and they are kept as long as the organization (the EU Court of Justice's C-55/18 record " +
    "of working time is the shifts' history here). Paged oldest first with `cursor` (the `Link` header). Needs " +
    "ORGANIZATION_ADMIN.",
  middleware: [authorize("ORGANIZATION_ADMIN")] as const,
  request: { params: OrganizationParams, query: AuditLogQuery },
  responses: { 200: jsonContent(z.array(AuditEntry), "Entries, oldest first"), ...problems() },
});

export type ListRoute = typeof list;
