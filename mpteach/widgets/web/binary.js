// Arrays that travel to the page as base64 of little-endian bytes (numpy's tobytes()).
//
// Exports:
//   fromBase64(text, Type)  a typed array of Type (Float64Array, Int8Array, ...) over the bytes
export function fromBase64(text, Type) {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return new Type(bytes.buffer);
}
