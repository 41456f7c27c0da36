// Reading untyped JSON: what Chrome, the page and the host hand over
// arrives as unknown, and a value is used as an object only once this says
// it is one. (The host's params have generated decoders: protocol's
// NativeParamsDecoders.)

export function isFields(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
