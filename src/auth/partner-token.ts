import {
  decodeJwt,
  decodeProtectedHeader,
  errors,
  importJWK,
  type JWK,
  type JWTPayload,
  jwtVerify,
  type ProtectedHeaderParameters,
} from "jose";
import { isTokenScope } from "@/domain/token-scopes";
import { unauthorized } from "@/problems/problem";

const ALGORITHMS = ["ES256", "RS256"];
/** Allowed clock skew between a partner's backend and the edge. */
const CLOCK_TOLERANCE_SECONDS = 60;
/** The longest `jti` a partner token may carry. */
const MAX_JTI_LENGTH = 255;

export interface PartnerClaims {
  partnerId: string;
  /** The token's id: each is exchanged once within its lifetime. */
  jti: string;
  /** When the token stops verifying (its `exp` plus the clock tolerance): until then a replay is refused. */
  usableUntil: Date;
  organizationId?: string;
  employeeId?: string;
  externalEmployeeId?: string;
  /** Token scopes narrower than the role (domain/token-scopes), kept by the exchange; absent: the role alone. */
  scopes?: string[];
}

const optionalString = (value: unknown, claim: string) => {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") throw unauthorized("TOKEN_CLAIM_INVALID", `Claim '${claim}' must be a non-empty string.`);
  return value;
};

function partnerKey(partnerKeys: string, partnerId: string): JWK {
  const keys = JSON.parse(partnerKeys) as Record<string, JWK>;
  const key = Object.hasOwn(keys, partnerId) ? keys[partnerId] : undefined;
  if (!key) throw unauthorized("UNKNOWN_PARTNER", `No partner '${partnerId}' is configured.`);
  return key;
}

function unverifiedIssuer(token: string): string {
  let header: ProtectedHeaderParameters;
  let payload: JWTPayload;
  try {
    header = decodeProtectedHeader(token);
    payload = decodeJwt(token);
  } catch {
    throw unauthorized("TOKEN_MALFORMED", "The partner token is not a JWT.");
  }
  if (!header.alg || !ALGORITHMS.includes(header.alg)) {
    throw unauthorized("TOKEN_ALGORITHM_NOT_ALLOWED", `Partner tokens must be signed with ${ALGORITHMS.join(" or ")}.`);
  }
  if (typeof payload.iss !== "string" || payload.iss === "") throw unauthorized("TOKEN_CLAIM_MISSING", "Claim 'iss' is required.");
  return payload.iss;
}

/** The `scopes` claim: an array of scopes or one space-separated string (OAuth's `scope` form), each one known. */
function scopesClaim(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const list = typeof value === "string" ? value.split(" ").filter(Boolean) : value;
  if (!Array.isArray(list) || !list.every((s): s is string => typeof s === "string" && isTokenScope(s))) {
    throw unauthorized("TOKEN_CLAIM_INVALID", "Claim 'scopes' must list scopes such as 'timesheets:read', 'schedules:write' or '*:read'.");
  }
  return [...new Set(list)];
}

/** Verifies a partner-signed JWT against the partner's configured public key; every failure is a precise 401. */
export async function verifyPartnerToken(token: string, partnerKeys: string): Promise<PartnerClaims> {
  const partnerId = unverifiedIssuer(token);
  const jwk = partnerKey(partnerKeys, partnerId);
  let payload: JWTPayload;
  try {
    const key = await importJWK(jwk, jwk.alg ?? (jwk.kty === "RSA" ? "RS256" : "ES256"));
    ({ payload } = await jwtVerify(token, key, {
      algorithms: ALGORITHMS,
      issuer: partnerId,
      requiredClaims: ["exp", "jti"],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw unauthorized("TOKEN_EXPIRED", "The partner token has expired.");
    if (error instanceof errors.JWTClaimValidationFailed) {
      const code = error.reason === "missing" ? "TOKEN_CLAIM_MISSING" : "TOKEN_CLAIM_INVALID";
      throw unauthorized(code, `Claim '${error.claim}' is ${error.reason === "missing" ? "required" : "invalid"}.`);
    }
    if (error instanceof errors.JOSEAlgNotAllowed)
      throw unauthorized("TOKEN_ALGORITHM_NOT_ALLOWED", "That signing algorithm is not allowed.");
    throw unauthorized("TOKEN_SIGNATURE_INVALID", "The partner token's signature does not verify with the partner's key.");
  }
  if (typeof payload.iat === "number" && payload.iat > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) {
    throw unauthorized("TOKEN_ISSUED_IN_FUTURE", "The partner token's 'iat' is in the future.");
  }
  const { jti } = payload;
  if (typeof jti !== "string" || jti === "" || jti.length > MAX_JTI_LENGTH) {
    throw unauthorized("TOKEN_CLAIM_INVALID", `Claim 'jti' must be a string of 1 to ${MAX_JTI_LENGTH} characters.`);
  }
  const claims: PartnerClaims = {
    partnerId,
    jti,
    usableUntil: new Date(((payload.exp as number) + CLOCK_TOLERANCE_SECONDS) * 1000),
    organizationId: optionalString(payload.organizationId, "organizationId"),
    employeeId: optionalString(payload.employeeId, "employeeId"),
    externalEmployeeId: optionalString(payload.externalEmployeeId, "externalEmployeeId"),
    scopes: scopesClaim(payload.scopes),
  };
  if ((claims.employeeId || claims.externalEmployeeId) && !claims.organizationId) {
    throw unauthorized("TOKEN_CLAIM_MISSING", "Claim 'organizationId' is required with an employee claim.");
  }
  return claims;
}
