import { describe, expect, it } from "vitest";
import { ResumableSha256 } from "@/domain/sha256";

const text = (s: string) => new TextEncoder().encode(s);
const webCrypto = async (bytes: Uint8Array) =>
  Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)), (b) => b.toString(16).padStart(2, "0")).join("");

/** A deterministic pseudo-random source (xorshift32), so a failure names its seed. */
function randomOf(seed: number) {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

describe("ResumableSha256", () => {
  it("gives the NIST FIPS 180-2 example digests", () => {
    expect(new ResumableSha256().update(text("abc")).hex()).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(new ResumableSha256().hex()).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(new ResumableSha256().update(text("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).hex()).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
    expect(new ResumableSha256().update(new Uint8Array(1_000_000).fill(0x61)).hex()).toBe(
      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
    );
  });

  it("equals WebCrypto on random inputs split at random points, its state carried through JSON between pieces", async () => {
    const random = randomOf(20261207);
    for (let run = 0; run < 60; run++) {
      const size = run < 20 ? run * 7 : Math.floor(random() * 5000);
      const bytes = new Uint8Array(size).map(() => Math.floor(random() * 256));
      let hash = new ResumableSha256();
      let at = 0;
      while (at < size) {
        const next = Math.min(size, at + Math.floor(random() * 200));
        hash.update(bytes.subarray(at, next));
        hash = new ResumableSha256(JSON.parse(JSON.stringify(hash.state())));
        at = next;
      }
      expect({ run, size, hex: hash.hex() }).toEqual({ run, size, hex: await webCrypto(bytes) });
    }
  });

  it("hex() leaves the hash going on: a prefix's digest, then the whole's", async () => {
    const hash = new ResumableSha256().update(text("closed"));
    expect(hash.hex()).toBe(await webCrypto(text("closed")));
    hash.update(text(" payroll"));
    expect(hash.hex()).toBe(await webCrypto(text("closed payroll")));
  });

  it("refuses a state that is not one", () => {
    expect(() => new ResumableSha256({ h: [1, 2], pending: "", length: 0 })).toThrow();
    expect(() => new ResumableSha256({ h: [1, 2, 3, 4, 5, 6, 7, 8], pending: "ab", length: 64 })).toThrow();
  });
});
