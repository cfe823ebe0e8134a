let lastMs = 0;
let sequence = 0;
/** "00" … "ff". */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/**
 * UUIDv7: time-ordered, so keyset pagination by id follows creation order and inserts stay index-local.
 * Ids made in the same millisecond by one isolate carry a rising 12-bit counter, so they sort in creation order too.
 */
export function newId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else {
    sequence = (sequence + 1) & 0xfff;
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let time = lastMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  // Byte by byte through a table: no array of 16 strings and no join per id (issue 36: every write makes several).
  let id = "";
  for (let i = 0; i < 16; i++) id += (i === 4 || i === 6 || i === 8 || i === 10 ? "-" : "") + HEX[bytes[i]!];
  return id;
}
