/**
 * Signing secrets: Standard Webhooks `whsec_` + base64 of 24 random bytes, shown once. Stored AES-GCM encrypted
 * under WEBHOOK_SECRET_KEY (a Worker secret, base64 of 32 bytes) with the endpoint's id as additional data, so a
 * database read alone yields nothing usable, nor a ciphertext that decrypts for another endpoint.
 */
const bytesOf = (base64: string) => Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0));
const base64Of = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

async function keyOf(secretKey: string | undefined) {
  const raw = secretKey ? bytesOf(secretKey) : new Uint8Array();
  if (raw.length !== 32) throw new Error("WEBHOOK_SECRET_KEY must be base64 of 32 bytes");
  return crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

export const newSigningSecret = () => `whsec_${base64Of(crypto.getRandomValues(new Uint8Array(24)))}`;

export async function encryptSecret(secretKey: string | undefined, webhookId: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const additionalData = new TextEncoder().encode(webhookId);
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData },
    await keyOf(secretKey),
    new TextEncoder().encode(secret),
  );
  return `v1.${base64Of(iv)}.${base64Of(new Uint8Array(sealed))}`;
}

export async function decryptSecret(secretKey: string | undefined, webhookId: string, stored: string): Promise<string> {
  const [, iv, sealed] = stored.split(".");
  const additionalData = new TextEncoder().encode(webhookId);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytesOf(iv!), additionalData },
    await keyOf(secretKey),
    bytesOf(sealed!),
  );
  return new TextDecoder().decode(plain);
}
