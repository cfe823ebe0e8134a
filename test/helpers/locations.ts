import { api } from "./api";
import type { OrganizationFixture } from "./fixtures";

/** The brief's sample location; tests override what they care about. */
export const sampleLocation = () => ({
  name: "Main Street Store",
  website: "https://example.com",
  country: "US",
  state: "NY",
  city: "New York",
  addressLine1: "1 Main St",
  addressLine2: "Suite 200",
  zipCode: 10001,
  longitude: "-73.985428",
  latitude: "40.748817",
  clock_in_distance_centimeters: 10000,
  clock_out_distance_centimeters: 10000,
  break_start_distance_centimeters: 10000,
  break_end_distance_centimeters: 10000,
});

export interface LocationFixture {
  id: string;
  name: string;
  externalId: string | null;
  timezone: string;
  updatedAt: string;
  [field: string]: unknown;
}

/** Creates a location in the organization with its admin token, and answers the stored record. */
export async function createLocation(org: OrganizationFixture, body: Record<string, unknown> = {}): Promise<LocationFixture> {
  const res = await api("POST", `/api/organizations/${org.id}/locations`, {
    token: org.adminToken,
    body: { ...sampleLocation(), ...body },
  });
  if (res.status !== 201) throw new Error(`location: ${res.status} ${res.text}`);
  return res.body;
}
