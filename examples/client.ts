/**
 * An integrator's program against a client generated from the document, as a new integrator would write it:
 * openapi-typescript types (`api-types.ts`, see the README) and openapi-fetch, no casts, no non-null assertions.
 * test/node/client-types.test.ts type-checks it against the document the Worker serves.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./api-types";

type Shift = components["schemas"]["Shift"];

/**
 * Signs a partner token (your backend holds the partner key): `organizationId` scopes it to one organization. Each
 * token carries a fresh `jti` and is exchanged once (a second exchange is 401 TOKEN_REPLAYED): sign one per exchange.
 */
export type SignPartnerToken = (claims: { organizationId?: string; employeeId?: string }) => Promise<string>;

export async function firstShift(baseUrl: string, sign: SignPartnerToken): Promise<Shift[]> {
  const api = createClient<paths>({ baseUrl });

  const exchange = async (claims: Parameters<SignPartnerToken>[0]) => {
    const { data, error } = await api.POST("/api/auth/exchangeToken", { body: { token: await sign(claims) } });
    if (error) throw new Error(`${error.code}: ${error.detail}`);
    return { Authorization: `${data.tokenType} ${data.accessToken}` };
  };

  // An organization with its defaults; timezone is left to the server's default.
  const partner = await exchange({});
  const organization = await api.POST("/api/organizations/with-defaults", {
    headers: { ...partner, "Idempotency-Key": "org-blue-bottle" },
    body: { name: "Blue Bottle Coffee", country: "US", currencyCode: "USD" },
  });
  if (organization.error) throw new Error(organization.error.code);
  const organizationId: string = organization.data.id;

  const admin = await exchange({ organizationId });
  const params = { path: { organization_id: organizationId } };

  // A location with a 100 m clock-in fence; geofenceMode and timezone are defaulted.
  const location = await api.POST("/api/organizations/{organization_id}/locations", {
    params,
    headers: admin,
    body: {
      name: "Flatiron",
      country: "US",
      city: "New York",
      addressLine1: "1 Broadway",
      zipCode: 10001,
      longitude: "-73.985428",
      latitude: "40.748817",
      clock_in_distance_centimeters: 10000,
    },
  });
  if (location.error) throw new Error(location.error.code);

  const staff = await api.POST("/api/organizations/{organization_id}/staffmembers", {
    params,
    headers: admin,
    body: { name: "Ada", locationIds: [location.data.id] },
  });
  if (staff.error) throw new Error(staff.error.code);

  const roles = await api.GET("/api/organizations/{organization_id}/roles", { params, headers: admin });
  if (roles.error) throw new Error(roles.error.code);
  const [role] = roles.data;
  if (role === undefined) throw new Error("the organization has no role");

  const clockIn = await api.POST("/api/organizations/{organization_id}/staffmembers/{id}/locations/{location_id}/clock-in", {
    params: { path: { organization_id: organizationId, id: staff.data.id, location_id: location.data.id } },
    headers: { ...(await exchange({ organizationId, employeeId: staff.data.id })), "Idempotency-Key": "punch-0001" },
    body: { roleId: role.id, latitude: 40.74883, longitude: -73.98541, accuracy: 8 },
  });
  if (clockIn.error) {
    if (clockIn.error.code === "OUTSIDE_GEOFENCE") throw new Error(`outside by ${clockIn.error.distanceCentimeters} cm`);
    throw new Error(clockIn.error.code);
  }
  const opened: Shift = clockIn.data;
  const startedAt: string = opened.utcStartTime;

  const timesheets = await api.GET("/api/timesheets", {
    params: { query: { startDate: startedAt.slice(0, 10), endDate: startedAt.slice(0, 10), flagged: "false", limit: 100 } },
    headers: admin,
  });
  if (timesheets.error) throw new Error(timesheets.error.code);
  const link = timesheets.response.headers.get("Link");
  if (link !== null) console.log("more shifts at", link);
  return timesheets.data.shifts.filter((shift) => shift.id === opened.id || shift.flags.includes("IP_FAR"));
}
