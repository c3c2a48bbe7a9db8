/**
 * Deterministic embeddings for the mock provider: the same model, text and dimension count always give the
 * same unit-length vector (SHA-256 of model and text, stretched with a counter), so a test can tell which
 * model answered and check that vectors survive the gateway bit for bit.
 */
import { createHash } from "node:crypto";

export const MOCK_EMBEDDING_DIMENSIONS = 8;

export function mockEmbedding(model: string, text: string, dimensions = MOCK_EMBEDDING_DIMENSIONS): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dimensions; block += 1) {
    const digest = createHash("sha256").update(`${model}\u0000${block}\u0000${text}`).digest();
    for (let offset = 0; offset + 4 <= digest.length && values.length < dimensions; offset += 4) {
      values.push(digest.readUInt32LE(offset) / 0x1_0000_0000 - 0.5);
    }
  }
  const length = Math.hypot(...values) || 1;
  // Rounded through float32: what a real provider's base64 answer carries.
  return values.map((value) => Math.fround(value / length));
}

/** Text inputs as sent: a string, a list of strings, or token ids (rendered as their digits). */
export function embeddingInputs(input: unknown): string[] | undefined {
  if (typeof input === "string") return [input];
  if (!Array.isArray(input) || input.length === 0) return undefined;
  if (input.every((item) => typeof item === "string")) return input as string[];
  if (input.every((item) => typeof item === "number")) return [input.join(" ")];
  if (input.every((item) => Array.isArray(item) && item.every((token) => typeof token === "number"))) {
    return (input as number[][]).map((tokens) => tokens.join(" "));
  }
  return undefined;
}

/** About four characters per token, at least one per input: the mock's usage counts. */
export function embeddingTokens(inputs: readonly string[]): number {
  return inputs.reduce((total, text) => total + Math.max(1, Math.ceil(text.length / 4)), 0);
}
