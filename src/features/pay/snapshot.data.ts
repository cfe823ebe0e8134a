/**
 * A payroll snapshot as stored: its canonical JSON, gzip-compressed and base64-encoded. A period's pay lines run
 * to megabytes of JSON (500 staff × a month) and a D1 row holds at most 2 MB; compressed they are a tenth of that.
 * The text is stored once at close and answered by every payroll read after, never recomputed.
 */
export async function packSnapshot(canonical: string): Promise<string> {
  const stream = new Blob([canonical]).stream().pipeThrough(new CompressionStream("gzip"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export async function unpackSnapshot(packed: string): Promise<string> {
  const bytes = Uint8Array.from(atob(packed), (char) => char.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}
