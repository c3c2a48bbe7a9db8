/** Newline-delimited JSON framing (Ollama's native streaming format is NDJSON, not SSE). */
import { decodeTextStream } from "./read-body.js";

/** Yields each non-blank line of a body without its line terminator; a last unterminated line counts. */
export async function* readNdjsonLines(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  let buffered = "";
  for await (const text of decodeTextStream(body)) {
    buffered += text;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      const trimmed = line.trim();
      if (trimmed !== "") yield trimmed;
    }
  }
  const last = buffered.trim();
  if (last !== "") yield last;
}
