const MEDIA_TYPE = /^application\/(?:json|[\w.-]+\+json)$/;
const CHARSET = /^charset=(?:utf-8|"utf-8")$/;

/**
 * Whether a Content-Type names JSON as this API reads it: `application/json` or a `+json` type, with no parameter
 * but an optional `charset=utf-8` (RFC 8259 §8.1: JSON exchanged is UTF-8). `charset=utf-16`, another parameter or
 * any other type is not: its body would be decoded as UTF-8 all the same, so it is refused, not misread.
 */
export function isJsonMediaType(header: string | null | undefined): boolean {
  const [type = "", ...parameters] = (header ?? "").toLowerCase().split(";");
  if (!MEDIA_TYPE.test(type.trim())) return false;
  return parameters.every((parameter) => {
    const text = parameter.trim();
    return text === "" || CHARSET.test(text.replace(/\s*=\s*/, "="));
  });
}
