/** OpenAI's `encoding_format: "base64"`: the vector's float32 little-endian bytes, base64-encoded. */

export function float32Base64(vector: readonly number[]): string {
  const floats = new Float32Array(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString("base64");
}

export function vectorFromBase64(text: string): number[] {
  const bytes = Buffer.from(text, "base64");
  const floats = new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 4));
  return [...floats];
}
