import { z } from "@hono/zod-openapi";
import { idParam, OrganizationParams } from "@/platform/openapi/helpers";
import { Instant, orNull, UtcOffset } from "@/platform/schemas/validation";
import { ProblemSchema } from "@/problems/problem";
import { CustomFieldValuesInput, Shift } from "./shift.schemas";

export const StaffLocationParams = OrganizationParams.extend({
  id: idParam("id", "Staff member id"),
  location_id: idParam("location_id", "Location id"),
});

const position = {
  latitude: z.number().min(-90).max(90).optional().openapi({ example: 40.748817, description: "Decimal degrees." }),
  longitude: z.number().min(-180).max(180).optional().openapi({ example: -73.985428, description: "Decimal degrees." }),
  accuracy: z
    .number()
    .min(0)
    .max(100_000)
    .optional()
    .openapi({ example: 12, description: "Horizontal accuracy in metres, as the phone reports it." }),
  occurredAt: Instant.optional().openapi({
    example: "2026-03-14T13:02:00Z",
    description:
      "When the punch happened, for punches captured offline: at most 2 minutes ahead of the server, at most 72 h " +
      "old, never before the shift's previous event. Omitted: the time the service receives it.",
  }),
  mock: z.boolean().optional().openapi({ description: "The device reports a mocked location (flags MOCK_LOCATION)." }),
};

const CostCodeId = z.string().min(1).max(64).openapi({
  description: "The cost code the time is charged to: an active code assigned to the staff member (else 422 COST_CODE_NOT_ASSIGNED).",
});

export const PunchBody = z.object(position).openapi("PunchPosition");

export const ClockOutBody = z.object({ ...position, customFields: CustomFieldValuesInput.optional() }).openapi("ClockOutRequest");

export const ClockInBody = z
  .object({
    roleId: z.string().min(1).max(64).openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" }),
    costCodeId: CostCodeId.optional(),
    customFields: CustomFieldValuesInput.optional(),
    utcOffset: UtcOffset.openapi({
      description:
        "Minutes east of UTC (a number or an integer string). Omitted or null: derived from the location's time zone at that instant.",
    }),
    ...position,
  })
  .openapi("ClockInRequest");

export const SwitchBody = z
  .object({
    costCodeId: CostCodeId,
    roleId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: "The next shift's role; omitted: the ending shift's.", example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" }),
    ...position,
  })
  .openapi("SwitchRequest");

export const BreakStartBody = z
  .object({ typeId: z.string().min(1).max(64).openapi({ description: "An enabled break type of the location." }), ...position })
  .openapi("BreakStartRequest");

export const ShiftState = z
  .object({
    totalShiftTimeToday: z
      .number()
      .int()
      .openapi({
        description:
          "Payable minutes of the staff member's shifts that started today (the location's local business date), " +
          "the open shift counted up to now.",
        example: 95,
      }),
    openShift: orNull(Shift),
    availableBreaks: z.array(z.string()).openapi({
      description:
        "Break type ids the staff member may start now: enabled types of this location, while a shift is open here and no break is.",
    }),
  })
  .openapi("ShiftState");

const centimeters = (description: string) => z.number().int().optional().openapi({ description });

export const GeofenceProblem = ProblemSchema.extend({
  distanceCentimeters: centimeters("With OUTSIDE_GEOFENCE: the position's distance from the location's point."),
  allowedCentimeters: centimeters("With OUTSIDE_GEOFENCE: the location's radius for this kind of punch."),
  accuracyCentimeters: centimeters("With OUTSIDE_GEOFENCE: the accuracy the phone reported."),
}).openapi("GeofenceProblem", {
  description: "A problem; 422 OUTSIDE_GEOFENCE adds the distances, in centimeters (absent on other problems).",
});

export type PunchFields = z.infer<typeof PunchBody>;
export type ClockOutFields = z.infer<typeof ClockOutBody>;
