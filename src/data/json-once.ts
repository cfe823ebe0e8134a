const texts = new WeakMap<object, string>();

/**
 * `JSON.stringify` of an object, once per object: a punch's answer is its event's data, the body stored under its
 * Idempotency-Key and the body sent, and was serialized for each (issue 36). Only for objects that no longer change
 * once serialized (an answer built before its write batch).
 */
export function jsonOnce(value: object): string {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}
