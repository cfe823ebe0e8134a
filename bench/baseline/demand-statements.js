// The SQL our Worker sends for PUT …/locations/{locationId}/demand (src/features/demand/demand.data.ts upsertDemand):
// filled in from the labor-cost scenario's trace.
export function demandTrips() {
  return [];
}
