// The SQL our Worker sends for the schedules scenario (copied from its trace), with the bound values per request.
export const weekViewTrips = () => [];
export const publishTrips = () => [];
export const resetDraftsStatement = (locationId, week) => ({
  sql: "UPDATE schedule_entries SET is_draft = 1, published_at = NULL WHERE location_id = ? AND start_at >= ? AND start_at < ?",
  params: [locationId, Date.parse(`${week.startDate}T00:00:00Z`), Date.parse(`${week.endDate}T23:59:59Z`) + 86_400_000],
});
