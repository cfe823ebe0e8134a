/**
 * Files (payroll snapshots, exports, kiosk photos) in R2: the one module over those buckets, as client.ts is over D1.
 * Objects are immutable: a put never replaces one (`put` refuses a key that exists), and D1 keeps each committed
 * object's key, size and SHA-256. One bucket per data region (FILES, FILES_EU: `filesOf` in shards.ts picks an
 * organization's by its shard's region), not per shard: an organization's keys stay valid when a shard move copies its
 * rows to another shard of its region (docs/SCALING.md).
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

const hexOf = (digest: ArrayBuffer) => Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return hexOf(await crypto.subtle.digest("SHA-256", bytes));
}

/** SHA-256 over bytes given piece by piece (workerd's crypto.DigestStream: no piece is kept). */
export class Sha256 {
  readonly #stream = new crypto.DigestStream("SHA-256");
  readonly #writer = this.#stream.getWriter();

  update(bytes: Uint8Array): Promise<void> {
    return this.#writer.write(bytes);
  }

  /** The digest (hex) of every byte given; nothing may be given after. */
  async hex(): Promise<string> {
    await this.#writer.close();
    return hexOf(await this.#stream.digest);
  }
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
  return { size: object.size, sha256: hexOf(await digest.digest) };
}

/** Bytes of every part of a multipart object but the last: FILE_PART_BYTES when set (the tests), else MIN_PART_BYTES. */
export function partBytesOf(env: object): number {
  const value = Number((env as { FILE_PART_BYTES?: string }).FILE_PART_BYTES);
  return Number.isInteger(value) && value > 0 ? value : MIN_PART_BYTES;
}

/**
 * An object written piece by piece, never whole in memory: the bytes go into one part buffer (up to `partBytes`); each
 * time it is full it is uploaded as the next part of a multipart upload (started with the first full part; R2 wants
 * every part but the last at least MIN_PART_BYTES and all of the same size, which a fixed buffer gives). SHA-256 and
 * size are computed as the bytes pass. `finish` uploads the rest as the last part and completes the object; an object
 * smaller than one part is stored by one put instead (refused, like putFile, when its key exists: FileExistsError).
 * Until `finish` returns nothing is visible under `key`; `abort` discards the parts uploaded so far. Keys are new
 * (a close's or an export's own): a completed multipart object is not checked against an existing one.
 */
export class FileWriter {
  readonly #hash = new Sha256();
  readonly #parts: R2UploadedPart[] = [];
  #buffer: Uint8Array | null = null;
  #filled = 0;
  #size = 0;
  #upload: R2MultipartUpload | null = null;

  constructor(
    readonly bucket: R2Bucket,
    readonly key: string,
    readonly contentType: string,
    readonly partBytes: number,
  ) {}

  async write(piece: Uint8Array | string): Promise<void> {
    const bytes = typeof piece === "string" ? encoder.encode(piece) : piece;
    await this.#hash.update(bytes);
    this.#size += bytes.byteLength;
    let offset = 0;
    while (offset < bytes.byteLength) {
      this.#grow(this.#filled + bytes.byteLength - offset);
      const take = Math.min(this.#buffer!.byteLength - this.#filled, bytes.byteLength - offset);
      this.#buffer!.set(bytes.subarray(offset, offset + take), this.#filled);
      this.#filled += take;
      offset += take;
      if (this.#filled === this.partBytes) await this.#uploadPart();
    }
  }

  /** The part buffer grown towards `wanted` bytes (doubling from 64 KiB, at most partBytes): a small object stays small. */
  #grow(wanted: number) {
    const size = this.#buffer?.byteLength ?? 0;
    if (size >= this.partBytes || size >= wanted) return;
    let next = Math.max(size, 64 * 1024);
    while (next < wanted && next < this.partBytes) next *= 2;
    const grown = new Uint8Array(Math.min(next, this.partBytes));
    if (this.#buffer) grown.set(this.#buffer.subarray(0, this.#filled));
    this.#buffer = grown;
  }

  async #uploadPart() {
    this.#upload ??= await this.bucket.createMultipartUpload(this.key, { httpMetadata: { contentType: this.contentType } });
    this.#parts.push(await this.#upload.uploadPart(this.#parts.length + 1, this.#buffer!.subarray(0, this.#filled)));
    this.#filled = 0;
  }

  /** Parts uploaded so far. */
  get parts(): number {
    return this.#parts.length;
  }

  async finish(): Promise<StoredFile> {
    const sha256 = await this.#hash.hex();
    const rest = this.#buffer ? this.#buffer.subarray(0, this.#filled) : new Uint8Array();
    if (this.#upload === null) {
      const stored = await this.bucket.put(this.key, rest, {
        onlyIf: new Headers({ "If-None-Match": "*" }),
        sha256,
        httpMetadata: { contentType: this.contentType },
      });
      if (stored === null) throw new FileExistsError(this.key);
    } else {
      if (this.#filled > 0) await this.#uploadPart();
      await this.#upload.complete(this.#parts);
    }
    this.#buffer = null;
    return { key: this.key, size: this.#size, sha256 };
  }

  /** Discards what was uploaded (an upload never completed leaves no object). */
  async abort(): Promise<void> {
    this.#buffer = null;
    if (this.#upload) await this.#upload.abort().catch(() => undefined);
  }
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

/** A multipart upload carried from one invocation to the next (a close job's assemble steps): JSON-safe. */
export interface CarriedUpload {
  key: string;
  uploadId: string;
  parts: R2UploadedPart[];
  /** Bytes written so far, the unfinished part's among them. */
  size: number;
}

/**
 * FileWriter over several invocations: each opens the upload where the last one paused (`open`), writes, and either
 * pauses — the unfinished part (less than partBytes) put under a key of its own, which the next invocation reads back
 * first — or finishes. Every part but the last is partBytes, as FileWriter's; an invocation run again over the same
 * bytes uploads the same part numbers again, which replaces them. Finishing an upload that has no part stores the bytes
 * by one put (and aborts the upload); finishing once more, when the object is there already, uploads nothing. It keeps
 * no hash: the caller hashes what it writes.
 */
export class CarriedFileWriter {
  readonly #parts: R2UploadedPart[];
  #buffer: Uint8Array;
  #filled = 0;
  #size: number;
  #completed = false;

  private constructor(
    readonly bucket: R2Bucket,
    readonly carried: CarriedUpload,
    readonly contentType: string,
    readonly partBytes: number,
  ) {
    this.#parts = [...carried.parts];
    this.#size = carried.size;
    this.#buffer = new Uint8Array(partBytes);
  }

  /** The upload as the last invocation left it (`restFrom`: its unfinished part, null at the start). */
  static async open(
    bucket: R2Bucket,
    carried: CarriedUpload,
    options: { contentType: string; partBytes: number; restFrom: string | null; last: boolean },
  ) {
    const writer = new CarriedFileWriter(bucket, carried, options.contentType, options.partBytes);
    // The last invocation run again after it completed the object: nothing more to upload.
    if (options.last && (await bucket.head(carried.key))) writer.#completed = true;
    if (options.restFrom !== null) {
      const rest = await bucket.get(options.restFrom);
      if (!rest) throw new Error(`The unfinished part ${options.restFrom} of ${carried.key} is missing.`);
      const bytes = new Uint8Array(await rest.arrayBuffer());
      writer.#buffer.set(bytes);
      writer.#filled = bytes.byteLength;
    }
    return writer;
  }

  async write(piece: Uint8Array | string): Promise<void> {
    const bytes = typeof piece === "string" ? encoder.encode(piece) : piece;
    this.#size += bytes.byteLength;
    let offset = 0;
    while (offset < bytes.byteLength) {
      const take = Math.min(this.partBytes - this.#filled, bytes.byteLength - offset);
      this.#buffer.set(bytes.subarray(offset, offset + take), this.#filled);
      this.#filled += take;
      offset += take;
      if (this.#filled === this.partBytes) await this.#uploadPart();
    }
  }

  async #uploadPart() {
    if (!this.#completed) {
      const upload = this.bucket.resumeMultipartUpload(this.carried.key, this.carried.uploadId);
      const { partNumber, etag } = await upload.uploadPart(this.#parts.length + 1, this.#buffer.subarray(0, this.#filled));
      this.#parts.push({ partNumber, etag });
    } else this.#parts.push({ partNumber: this.#parts.length + 1, etag: "" });
    this.#filled = 0;
  }

  /** The unfinished part put under `restTo`; the upload as the next invocation opens it. */
  async pause(restTo: string): Promise<CarriedUpload> {
    await this.bucket.put(restTo, this.#buffer.subarray(0, this.#filled));
    return { key: this.carried.key, uploadId: this.carried.uploadId, parts: this.#parts, size: this.#size };
  }

  /** The object completed (its size; its SHA-256 is the caller's). */
  async finish(): Promise<{ key: string; size: number }> {
    const { key, uploadId } = this.carried;
    if (this.#completed) return { key, size: this.#size };
    if (this.#parts.length === 0) {
      await abortUpload(this.bucket, key, uploadId).catch(() => undefined);
      const rest = this.#buffer.subarray(0, this.#filled);
      const stored = await this.bucket.put(key, rest, {
        onlyIf: new Headers({ "If-None-Match": "*" }),
        sha256: await sha256Hex(rest),
        httpMetadata: { contentType: this.contentType },
      });
      if (stored === null) throw new FileExistsError(key);
    } else {
      if (this.#filled > 0) await this.#uploadPart();
      await completeUpload(this.bucket, key, uploadId, this.#parts);
    }
    return { key, size: this.#size };
  }
}
