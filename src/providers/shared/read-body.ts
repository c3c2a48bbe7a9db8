/** Body decoding for upstream responses: bytes → text with TextDecoder, never Buffer concatenation tricks. */

/** Reads a whole body as UTF-8. `maxBytes` stops early (error bodies can be huge HTML pages). */
export async function readBodyText(body: AsyncIterable<Uint8Array>, maxBytes = Number.POSITIVE_INFINITY): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  for await (const chunk of body) {
    const remaining = maxBytes - bytes;
    const part = chunk.byteLength > remaining ? chunk.subarray(0, remaining) : chunk;
    text += decoder.decode(part, { stream: true });
    bytes += part.byteLength;
    if (bytes >= maxBytes) break;
  }
  return text + decoder.decode();
}

/** Decodes a byte stream into text pieces, keeping multi-byte characters that straddle chunks intact. */
export async function* decodeTextStream(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    const text = decoder.decode(chunk, { stream: true });
    if (text !== "") yield text;
  }
  const rest = decoder.decode();
  if (rest !== "") yield rest;
}
