/** Bytes gathered before a chunk is handed to the stream: few enough chunks, little held at once. */
const CHUNK_BYTES = 64 * 1024;

/**
 * A response body written piece by piece as the client reads it: `pieces` is pulled only as the stream wants more,
 * each piece's text encoded and passed on in chunks of about CHUNK_BYTES, so a large answer is never one string.
 * The caller makes the pieces add up to the exact bytes it would answer at once (JSON.stringify of the whole).
 */
export function textStream(pieces: Iterator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        let text = "";
        for (;;) {
          const next = pieces.next();
          if (next.done) {
            if (text) controller.enqueue(encoder.encode(text));
            controller.close();
            return;
          }
          text += next.value;
          if (text.length >= CHUNK_BYTES) {
            controller.enqueue(encoder.encode(text));
            return;
          }
        }
      },
      cancel() {
        pieces.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/** textStream of pieces that come asynchronously (read from an object as they are written out). */
export function asyncTextStream(pieces: AsyncIterator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let text = "";
        for (;;) {
          const next = await pieces.next();
          if (next.done) {
            if (text) controller.enqueue(encoder.encode(text));
            controller.close();
            return;
          }
          text += next.value;
          if (text.length >= CHUNK_BYTES) {
            controller.enqueue(encoder.encode(text));
            return;
          }
        }
      },
      async cancel() {
        await pieces.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
