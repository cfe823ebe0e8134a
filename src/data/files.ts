/**
 * Files (payroll snapshots, exports) in R2, the FILES bucket: the one module over that binding, as client.ts is over
 * D1. Objects are immutable: a put never replaces one (`put` refuses a key that exists), and D1 keeps each committed
 * object's key, size and SHA-256. The bucket is global, not sharded: an organization's keys stay valid when a shard
 * move copies its rows elsewhere (docs/SCALING.md).
 */

/** What D1 keeps of a stored object. */
export interface StoredFile {
  key: string;
  size: number;
  /** SHA-256 (hex) of the object's bytes. */
  sha256: string;
}

/** A put whose key already holds an object: objects are never overwritten. */
export class FileExistsError extends Error {
  constructor(readonly key: string) {
    super(`The file ${key} exists: files are immutable.`);
  }
}

const encoder = new TextEncoder();

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Stores `body` under `key` unless an object is there already (FileExistsError, nothing written). R2 checks the
 * SHA-256 computed here as it receives the bytes, and keeps it among the object's checksums.
 */
export async function putFile(bucket: R2Bucket, key: string, body: Uint8Array | string, contentType: string): Promise<StoredFile> {
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  const sha256 = await sha256Hex(bytes);
  const stored = await bucket.put(key, bytes, {
    onlyIf: new Headers({ "If-None-Match": "*" }),
    sha256,
    httpMetadata: { contentType },
  });
  if (stored === null) throw new FileExistsError(key);
  return { key, size: bytes.byteLength, sha256 };
}

/** The object's bytes as a stream (null when there is none). */
export const getFile = (bucket: R2Bucket, key: string) => bucket.get(key);

/** The object's size and checksums without its bytes (null when there is none). */
export const headFile = (bucket: R2Bucket, key: string) => bucket.head(key);

/** Deletes up to 1,000 objects (R2's limit per call). */
export async function deleteFiles(bucket: R2Bucket, keys: readonly string[]) {
  for (let i = 0; i < keys.length; i += 1000) await bucket.delete(keys.slice(i, i + 1000));
}

/** Every object under `prefix`, a page (≤ 1,000) at a time, with its upload time. */
export async function* listFiles(bucket: R2Bucket, prefix: string): AsyncGenerator<R2Object[]> {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor, limit: 1000 });
    if (page.objects.length) yield page.objects;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

/**
 * Multipart objects (exports written in chunks over many invocations): an upload is started once, each part is
 * uploaded by the invocation that produced it, and the part list (number and etag) is kept in D1 until the last
 * invocation completes the object. R2 wants every part but the last to be at least MIN_PART_BYTES.
 */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

export async function startUpload(bucket: R2Bucket, key: string, contentType: string): Promise<string> {
  const upload = await bucket.createMultipartUpload(key, { httpMetadata: { contentType } });
  return upload.uploadId;
}

export async function uploadPart(bucket: R2Bucket, key: string, uploadId: string, partNumber: number, body: Uint8Array) {
  const part = await bucket.resumeMultipartUpload(key, uploadId).uploadPart(partNumber, body);
  return { partNumber: part.partNumber, etag: part.etag };
}

export const completeUpload = (bucket: R2Bucket, key: string, uploadId: string, parts: R2UploadedPart[]) =>
  bucket.resumeMultipartUpload(key, uploadId).complete(parts);

export const abortUpload = (bucket: R2Bucket, key: string, uploadId: string) => bucket.resumeMultipartUpload(key, uploadId).abort();

/** The object's bytes and SHA-256 (hex), read back as a stream (an object completed from parts has no SHA-256 in R2). */
export async function objectDigest(bucket: R2Bucket, key: string): Promise<{ size: number; sha256: string } | null> {
  const object = await bucket.get(key);
  if (!object) return null;
  const digest = new crypto.DigestStream("SHA-256");
  await object.body.pipeTo(digest);
  const bytes = new Uint8Array(await digest.digest);
  return { size: object.size, sha256: Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("") };
}

/** Where an organization's kiosk photos live: photos/{organizationId}/{photoId}. */
export const organizationPhotosPrefix = (organizationId: string) => `photos/${organizationId}/`;
export const photoKey = (organizationId: string, photoId: string) => `${organizationPhotosPrefix(organizationId)}${photoId}`;

/** Deletes every object under `prefix` (a page at a time); answers how many it deleted. */
export async function deleteFilesUnder(bucket: R2Bucket, prefix: string): Promise<number> {
  let deleted = 0;
  for await (const page of listFiles(bucket, prefix)) {
    await deleteFiles(
      bucket,
      page.map((o) => o.key),
    );
    deleted += page.length;
  }
  return deleted;
}
