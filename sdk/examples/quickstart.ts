import {
  createShiftline,
  type Shiftline,
  ShiftlineError,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from "@shiftline/sdk";

/** The fetch to send with: leave it out to use the global one. */
type Fetch = (request: Request) => Promise<Response>;

/**
 * Opens a location, then answers "who is late today?" and lists every location, page by page. `accessToken` is an
 * organization's access token from POST /api/auth/exchangeToken.
 */
export async function lateToday(baseUrl: string, accessToken: string, organizationId: string, fetch?: Fetch) {
  const shiftline: Shiftline = createShiftline({ baseUrl, token: accessToken, fetch, retry: { retries: 3 } });
  const organization = { path: { organization_id: organizationId } };

  // A POST: the SDK sends an Idempotency-Key (a random UUID), so its retry after a 429 or 503 creates one location.
  const created = await shiftline.POST("/api/organizations/{organization_id}/locations", {
    params: organization,
    body: { name: "Flatiron", timezone: "America/New_York", latitude: "40.748817", longitude: "-73.985428" },
  });
  if (created.error) throw new ShiftlineError(created.response.status, created.error);

  // Who is late today: the attendance exceptions of type LATE_CLOCK_IN.
  const today = new Date().toISOString().slice(0, 10);
  const late = await shiftline.GET("/api/organizations/{organization_id}/attendance-exceptions", {
    params: { ...organization, query: { startDate: today, endDate: today, type: "LATE_CLOCK_IN" } },
  });
  if (late.error) throw new ShiftlineError(late.response.status, late.error);

  // Every location, two a page: the iterator follows each `Link: <…>; rel="next"`.
  const locations: string[] = [];
  const firstPage = shiftline.GET("/api/organizations/{organization_id}/locations", { params: { ...organization, query: { limit: 2 } } });
  for await (const location of shiftline.paginate(firstPage)) locations.push(location.name);

  return { locationId: created.data.id, late: late.data.map((exception) => exception.employeeId), locations };
}

/** A webhook receiver: hands on each event whose signature checks out (204), refuses anything else (400). */
export async function receiveWebhook(request: Request, endpointSecret: string, handle: (event: WebhookEvent) => Promise<void>) {
  try {
    await handle(verifyWebhook(endpointSecret, await request.text(), request.headers));
    return new Response(null, { status: 204 });
  } catch (error) {
    if (error instanceof WebhookVerificationError) return new Response("bad signature", { status: 400 });
    throw error;
  }
}
