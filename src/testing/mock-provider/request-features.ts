/**
 * What a request asks of the answer beyond its text, read from the canonical request (so from every wire
 * format alike): JSON mode, thinking, and the prompt prefix a provider would cache.
 */
import { createHash } from "node:crypto";
import type { CanonicalRequest } from "../../ports/canonical.js";

export interface MockRequestFeatures {
  /** The answer must be JSON; with a schema, JSON of the schema's shape. */
  json?: { schema?: Record<string, unknown> };
  /** The request enables thinking / reasoning. */
  thinking?: boolean;
  /** The prompt prefix a provider caches: up to the last cache mark, else all but the last message. */
  cachePrefix?: { hash: string; characters: number; marked: boolean };
}

interface PromptItem {
  text: string;
  marked: boolean;
}

function promptItems(request: CanonicalRequest): { items: PromptItem[]; lastMessageStart: number } {
  const items: PromptItem[] = [];
  if (request.systemParts) for (const part of request.systemParts) items.push({ text: part.text, marked: part.cache !== undefined });
  else if (request.system) items.push({ text: request.system, marked: false });
  for (const tool of request.tools ?? [])
    items.push({ text: JSON.stringify([tool.name, tool.description ?? "", tool.parameters]), marked: tool.cache !== undefined });
  let lastMessageStart = items.length;
  request.messages.forEach((message, index) => {
    if (index === request.messages.length - 1) lastMessageStart = items.length;
    for (const part of message.content) {
      const text =
        part.type === "text"
          ? part.text
          : part.type === "tool-result"
            ? part.content
            : part.type === "tool-call"
              ? `${part.name}${part.arguments}`
              : part.type === "thinking"
                ? part.text
                : JSON.stringify(part.source);
      items.push({ text: `${message.role}:${text}`, marked: "cache" in part && part.cache !== undefined });
    }
  });
  return { items, lastMessageStart };
}

function prefixOf(items: readonly PromptItem[], marked: boolean): MockRequestFeatures["cachePrefix"] {
  if (items.length === 0) return undefined;
  const hash = createHash("sha256");
  let characters = 0;
  for (const item of items) {
    hash.update(`${item.text.length}:${item.text}`);
    characters += item.text.length;
  }
  return { hash: hash.digest("hex"), characters, marked };
}

export function requestFeatures(request: CanonicalRequest): MockRequestFeatures {
  const features: MockRequestFeatures = {};
  const format = request.responseFormat;
  if (format?.type === "json") features.json = {};
  if (format?.type === "json-schema") features.json = { schema: format.schema };
  if (request.reasoning?.enabled === true) features.thinking = true;
  const { items, lastMessageStart } = promptItems(request);
  const lastMark = items.map((item) => item.marked).lastIndexOf(true);
  const prefix = lastMark >= 0 ? prefixOf(items.slice(0, lastMark + 1), true) : prefixOf(items.slice(0, lastMessageStart), false);
  if (prefix) features.cachePrefix = prefix;
  return features;
}

/**
 * The prefixes this mock has seen, as a provider's prompt cache: a marked prefix is written the first time
 * and read after; an unmarked one is read when it repeats (as OpenAI caches automatically). Bounded: the
 * oldest prefix is forgotten first.
 */
export class PromptCache {
  readonly #seen = new Set<string>();

  constructor(private readonly limit: number) {}

  /** Cache tokens of a request whose prefix has `tokens` tokens. */
  use(
    scope: string,
    prefix: NonNullable<MockRequestFeatures["cachePrefix"]>,
    tokens: number,
  ): { cacheReadTokens?: number; cacheWriteTokens?: number } {
    const key = `${scope}\u0000${prefix.hash}`;
    if (this.#seen.has(key)) {
      // Recently used entries stay longest.
      this.#seen.delete(key);
      this.#seen.add(key);
      return { cacheReadTokens: tokens };
    }
    this.#seen.add(key);
    if (this.#seen.size > this.limit) this.#seen.delete(this.#seen.values().next().value as string);
    return prefix.marked ? { cacheWriteTokens: tokens } : {};
  }

  clear(): void {
    this.#seen.clear();
  }
}
