/**
 * The items of one array member of a top-level JSON object, from its text given in pieces (a stream): each item
 * (an object) is answered as its own text as soon as it is complete, so a document of any size is read one item at
 * a time. Strings are skipped whole (braces, brackets and quotes inside them count for nothing); only the member
 * named `name` of the top-level object is read, whatever precedes or follows it. Items that are not objects or
 * arrays are not answered.
 */
export class JsonArrayItems {
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** The text of the string being read at depth 1 (a key or a value of the top-level object), and the last one. */
  #stringStart = -1;
  #stringCarry = "";
  #lastString = "";
  #inArray = false;
  #itemStart = -1;
  #itemCarry = "";

  constructor(readonly name: string) {}

  /** The items completed by this piece of text, in order. */
  push(text: string): string[] {
    const items: string[] = [];
    if (this.#stringStart >= 0) this.#stringStart = 0;
    if (this.#itemStart >= 0) this.#itemStart = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (c === 0x5c) this.#escaped = true;
        else if (c === 0x22) {
          this.#inString = false;
          if (this.#stringStart >= 0) {
            this.#lastString = this.#stringCarry + text.slice(this.#stringStart, i);
            this.#stringStart = -1;
            this.#stringCarry = "";
          }
        }
        continue;
      }
      if (c === 0x22) {
        this.#inString = true;
        if (this.#depth === 1) this.#stringStart = i + 1;
      } else if (c === 0x7b || c === 0x5b) {
        this.#depth++;
        if (this.#depth === 2 && c === 0x5b && this.#lastString === this.name) this.#inArray = true;
        else if (this.#depth === 3 && this.#inArray) this.#itemStart = i;
      } else if (c === 0x7d || c === 0x5d) {
        if (this.#depth === 3 && this.#inArray && this.#itemStart >= 0) {
          items.push(this.#itemCarry + text.slice(this.#itemStart, i + 1));
          this.#itemStart = -1;
          this.#itemCarry = "";
        }
        this.#depth--;
        if (this.#depth === 1) this.#inArray = false;
      }
    }
    if (this.#stringStart >= 0) this.#stringCarry += text.slice(this.#stringStart);
    if (this.#itemStart >= 0) this.#itemCarry += text.slice(this.#itemStart);
    return items;
  }
}

/** The items of the array member `name` of a JSON object streamed as bytes (UTF-8), one item's text at a time. */
export async function* jsonArrayItems(stream: ReadableStream<Uint8Array>, name: string): AsyncGenerator<string> {
  const items = new JsonArrayItems(name);
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  while (true) {
    const { done, value } = await reader.read();
    const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
    yield* items.push(text);
    if (done) return;
  }
}
