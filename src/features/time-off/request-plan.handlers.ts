import { localDate } from "@/domain/accrual";
import {
  type DayHours,
  deriveHourConfiguration,
  hourConfigurationProblem,
  MAX_REQUEST_DAYS,
  MAX_REQUEST_MS,
  totalHours,
} from "@/domain/hour-configuration";
import { addDays, offsetMinutesAt } from "@/domain/local-time";
import { invalidField } from "@/problems/problem";
import type { TimeOffSettingsValues } from "./time-off-settings.data";

export interface RequestInput {
  startTime: string;
  endTime: string;
  isAllDay: boolean;
  hourConfiguration?: DayHours[];
  note?: string;
  timezone?: string;
}

export interface RequestPlan {
  start: Date;
  end: Date;
  timezone: string;
  utcOffset: number;
  hourConfiguration: DayHours[];
  totalHours: number;
  firstDate: string;
}

/**
 * A request body checked against its window and the organization's settings, with its hours per local date
 * (given, or derived from the policy's full day): every refusal is a 400 naming the field.
 */
export function planRequest(
  input: RequestInput,
  fullDayDuration: number,
  settings: TimeOffSettingsValues,
  organizationZone: string,
  { mayExceedFullDay = false, now = new Date() }: { mayExceedFullDay?: boolean; now?: Date } = {},
): RequestPlan {
  const start = new Date(input.startTime);
  const end = new Date(input.endTime);
  if (end <= start) throw invalidField("endTime", "must be after startTime");
  if (end.getTime() - start.getTime() > MAX_REQUEST_MS) {
    throw invalidField("endTime", `must be at most ${MAX_REQUEST_DAYS} days after startTime`);
  }
  const timezone = input.timezone ?? organizationZone;
  let hourConfiguration: DayHours[];
  if (input.hourConfiguration) {
    const limits = { isAllDay: input.isAllDay, fullDayHours: fullDayDuration, mayExceedFullDay };
    const problem = hourConfigurationProblem(input.hourConfiguration, start, end, timezone, limits);
    if (problem) throw invalidField("hourConfiguration", problem);
    hourConfiguration = [...input.hourConfiguration].sort((a, b) => a.date.localeCompare(b.date));
  } else {
    hourConfiguration = deriveHourConfiguration(start, end, input.isAllDay, timezone, fullDayDuration);
  }
  const total = totalHours(hourConfiguration);
  if (!(total > 0)) throw invalidField("hourConfiguration", "the request must take some hours");
  const firstDate = hourConfiguration[0]!.date;
  const today = localDate(now, timezone);
  if (firstDate < today) {
    if (!settings.allowPastRequests) throw invalidField("startTime", "the time-off settings do not allow requests in the past");
  } else if (firstDate < addDays(today, settings.minimumNoticeDays)) {
    throw invalidField("startTime", `the time-off settings require ${settings.minimumNoticeDays} days' notice`);
  }
  if (settings.requireNote && !input.note?.trim()) throw invalidField("note", "the time-off settings require a note");
  return { start, end, timezone, utcOffset: offsetMinutesAt(timezone, start), hourConfiguration, totalHours: total, firstDate };
}
