/**
 * Where a webhook may point. Production: https only, and no host that names a private, loopback, link-local or
 * otherwise internal address (IP literals and internal names; a public name's DNS is not resolved here, since
 * Workers' fetch does not reach private networks of Cloudflare anyway). Elsewhere, http://localhost and
 * http://127.0.0.1 are allowed too, for local receivers.
 */
const PRIVATE_V4 = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "224.0.0.0/3",
];

function ipv4(host: string): number | null {
  const parts = host.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

const privateV4 = (address: number) =>
  PRIVATE_V4.some((cidr) => {
    const [base, bits] = cidr.split("/");
    const size = 2 ** (32 - Number(bits));
    return Math.floor(address / size) === Math.floor(ipv4(base!)! / size);
  });

export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal")) return true;
  if (!host.includes(".") && !host.includes(":")) return true;
  const v4 = ipv4(host);
  if (v4 !== null) return privateV4(v4);
  if (host.includes(":")) {
    return host === "::1" || host === "::" || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith("::ffff:");
  }
  return false;
}

/** Why the URL is refused, or null. */
export function webhookUrlProblem(url: string, production: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "not an absolute URL";
  }
  if (parsed.username || parsed.password) return "must not carry credentials";
  const local = parsed.hostname === "localhost" || parsed.hostname === "127.0.0.1";
  if (parsed.protocol === "http:" && local && !production) return null;
  if (parsed.protocol !== "https:") return production ? "must be https" : "must be https (or http://localhost, http://127.0.0.1)";
  if (production && isPrivateHost(parsed.hostname)) return "must not name a private, loopback or internal host";
  return null;
}
