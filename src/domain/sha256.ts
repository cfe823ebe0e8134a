/**
 * SHA-256 (FIPS 180-4) whose running state can be written down and taken up again: a close job hashes its payroll over
 * several Workflow steps (each one Worker invocation) and carries the state in a step's result. WebCrypto (and workerd's
 * DigestStream) cannot export a digest's state, and @noble/hashes — not a dependency here — keeps its state in fields
 * it does not export; this is the plain algorithm, checked against the NIST vectors and against WebCrypto.
 */

/** The state between two pieces: the eight working words, the bytes of an unfinished block (hex), the bytes so far. */
export interface Sha256State {
  h: number[];
  pending: string;
  length: number;
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const hexOf = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

function bytesOfHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

export class ResumableSha256 {
  readonly #h = new Uint32Array(8);
  readonly #w = new Uint32Array(64);
  readonly #block = new Uint8Array(64);
  #filled = 0;
  #length = 0;

  constructor(state?: Sha256State) {
    if (!state) {
      this.#h.set(INITIAL);
      return;
    }
    const pending = bytesOfHex(state.pending);
    if (state.h.length !== 8 || pending.length >= 64 || state.length % 64 !== pending.length) throw new Error("Not a SHA-256 state.");
    this.#h.set(state.h);
    this.#block.set(pending);
    this.#filled = pending.length;
    this.#length = state.length;
  }

  update(bytes: Uint8Array): this {
    let offset = 0;
    this.#length += bytes.length;
    if (this.#filled > 0) {
      const take = Math.min(64 - this.#filled, bytes.length);
      this.#block.set(bytes.subarray(0, take), this.#filled);
      this.#filled += take;
      offset = take;
      if (this.#filled < 64) return this;
      this.#compress(this.#block, 0);
      this.#filled = 0;
    }
    for (; offset + 64 <= bytes.length; offset += 64) this.#compress(bytes, offset);
    this.#block.set(bytes.subarray(offset), 0);
    this.#filled = bytes.length - offset;
    return this;
  }

  /** The state so far (JSON-safe); the hash goes on taking bytes. */
  state(): Sha256State {
    return { h: Array.from(this.#h), pending: hexOf(this.#block.subarray(0, this.#filled)), length: this.#length };
  }

  /** The digest (hex) of every byte given, without ending this hash (its state is unchanged). */
  hex(): string {
    const last = new ResumableSha256(this.state());
    const bits = this.#length * 8;
    const padding = new Uint8Array(((55 - this.#filled + 64) % 64) + 9);
    padding[0] = 0x80;
    const view = new DataView(padding.buffer);
    view.setUint32(padding.length - 8, Math.floor(bits / 2 ** 32));
    view.setUint32(padding.length - 4, bits >>> 0);
    last.update(padding);
    const out = new Uint8Array(32);
    const outView = new DataView(out.buffer);
    for (let i = 0; i < 8; i++) outView.setUint32(4 * i, last.#h[i]!);
    return hexOf(out);
  }

  #compress(bytes: Uint8Array, at: number) {
    const w = this.#w;
    for (let i = 0; i < 16; i++) {
      const j = at + 4 * i;
      w[i] = (bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) | bytes[j + 3]!;
    }
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    const h = this.#h;
    let a = h[0]!;
    let b = h[1]!;
    let c = h[2]!;
    let d = h[3]!;
    let e = h[4]!;
    let f = h[5]!;
    let g = h[6]!;
    let k = h[7]!;
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (k + s1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = (h[0]! + a) | 0;
    h[1] = (h[1]! + b) | 0;
    h[2] = (h[2]! + c) | 0;
    h[3] = (h[3]! + d) | 0;
    h[4] = (h[4]! + e) | 0;
    h[5] = (h[5]! + f) | 0;
    h[6] = (h[6]! + g) | 0;
    h[7] = (h[7]! + k) | 0;
  }
}
