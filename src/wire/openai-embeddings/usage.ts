/**
 * The `usage` of an OpenAI embeddings answer without parsing its vectors (R-GW-7): OpenAI-compatible servers
 * put `usage` after `data`, so the last `"usage"` key is found from the end and only its small object parsed.
 * An answer where that fails simply has no usage.
 */
import { z } from "zod";

const usageSchema = z.looseObject({ prompt_tokens: z.number().nonnegative(), total_tokens: z.number().nonnegative().optional() });

const USAGE_KEY = Buffer.from('"usage"');
const OPEN = 0x7b;
const CLOSE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The end (exclusive) of the object starting at `start`, or -1. */
function objectEnd(bytes: Buffer, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < bytes.length; index += 1) {
    const byte = bytes[index];
    if (inString) {
      if (byte === BACKSLASH) index += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN) depth += 1;
    else if (byte === CLOSE) {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

export function embeddingsUsageOf(body: Buffer): { inputTokens: number } | undefined {
  const key = body.lastIndexOf(USAGE_KEY);
  if (key === -1) return undefined;
  const start = body.indexOf(OPEN, key + USAGE_KEY.length);
  if (start === -1) return undefined;
  const end = objectEnd(body, start);
  if (end === -1) return undefined;
  try {
    const usage = usageSchema.safeParse(JSON.parse(body.toString("utf8", start, end)));
    return usage.success ? { inputTokens: usage.data.prompt_tokens } : undefined;
  } catch {
    return undefined;
  }
}
