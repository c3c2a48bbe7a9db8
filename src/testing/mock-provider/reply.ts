/**
 * Deterministic healthy answers: a short text naming the model and the key's fingerprint (never the
 * key), or a tool call when the request offers tools and the last user message asks for one.
 */
import { createHash } from "node:crypto";
import type { MockRequestFeatures } from "./request-features.js";

/** What the mock needs to know about a request, extracted by each wire module. */
export interface MockConversation {
  /** Text of the last message when it is a user message; undefined when it is a tool result. */
  lastUserText?: string;
  /** Text of the last tool result when the conversation ends with one. */
  lastToolResultText?: string;
  tools: { name: string; parameters?: Record<string, unknown> }[];
  /** Characters of all prompt text, for a realistic input token count. */
  inputCharacters: number;
  /** Text of a trailing assistant message (a prefill, R-ST-4). */
  trailingAssistantText?: string;
  /** Text of the assistant turn just before the last user turn (an instructed continuation, R-ST-4). */
  previousAssistantText?: string;
  /** JSON mode, thinking and the cacheable prefix, read from the canonical request. */
  features?: MockRequestFeatures;
}

export interface MockToolCall {
  id: string;
  name: string;
  /** JSON text of the arguments. */
  arguments: string;
}

export interface MockReply {
  /** The answer text split into stream tokens (leading whitespace kept, like real tokenizers). */
  textTokens: string[];
  toolCall?: MockToolCall;
  /** Reasoning before the answer, when the request enables thinking: its tokens and the block's signature. */
  thinking?: { tokens: string[]; signature: string };
  finishReason: "stop" | "tool_calls";
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number; reasoningTokens?: number };
}

export function fingerprintKey(key: string | undefined): string {
  if (key === undefined || key === "") return "none";
  return `fp-${createHash("sha256").update(key).digest("hex").slice(0, 8)}`;
}

export function splitIntoTokens(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

function preview(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The tool-call trigger documented in docs/mock-provider.md: the word "tool" or an offered tool's name. */
export function pickRequestedTool(conversation: MockConversation): MockConversation["tools"][number] | undefined {
  const text = conversation.lastUserText;
  if (text === undefined || conversation.tools.length === 0) return undefined;
  const named = conversation.tools.find((tool) => tool.name !== "" && text.includes(tool.name));
  if (named) return named;
  return /\btools?\b/i.test(text) ? conversation.tools[0] : undefined;
}

function sampleValue(schema: unknown, property: string): unknown {
  const type = typeof schema === "object" && schema !== null ? (schema as { type?: unknown }).type : undefined;
  switch (type) {
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return `mock-${property}`;
  }
}

/** Arguments that satisfy the tool's declared properties with fixed sample values. */
export function sampleArguments(parameters: Record<string, unknown> | undefined): string {
  const properties = parameters?.properties;
  const args: Record<string, unknown> = {};
  if (typeof properties === "object" && properties !== null) {
    for (const [name, schema] of Object.entries(properties)) args[name] = sampleValue(schema, name);
  }
  return JSON.stringify(args);
}

/** A value of the schema's shape: every property filled, the first of an enum or a union, one array item. */
export function sampleJson(schema: unknown, name = "answer", depth = 0): unknown {
  if (typeof schema !== "object" || schema === null || depth > 8) return `mock-${name}`;
  const node = schema as Record<string, unknown>;
  if ("const" in node) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  const union = [node.anyOf, node.oneOf].find((options): options is unknown[] => Array.isArray(options) && options.length > 0);
  if (union) return sampleJson(union[0], name, depth + 1);
  const type = Array.isArray(node.type) ? node.type.find((each) => each !== "null") : node.type;
  switch (type) {
    case "object": {
      const properties =
        typeof node.properties === "object" && node.properties !== null ? (node.properties as Record<string, unknown>) : {};
      return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, sampleJson(value, key, depth + 1)]));
    }
    case "array":
      return [sampleJson(node.items, name, depth + 1)];
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return typeof node.properties === "object" ? sampleJson({ ...node, type: "object" }, name, depth + 1) : `mock-${name}`;
  }
}

/** The reply text as JSON when the request asks for JSON: the schema's shape, else the text under `answer`. */
function asRequestedJson(text: string, json: NonNullable<MockRequestFeatures["json"]>): string {
  return JSON.stringify(json.schema ? sampleJson(json.schema) : { answer: text });
}

/** Thinking before the answer when the request enables it, counted as output and as reasoning (R-GW-7). */
export function withThinking(reply: MockReply, conversation: MockConversation): MockReply {
  if (conversation.features?.thinking !== true || reply.thinking) return reply;
  const text = `The user said "${preview(conversation.lastUserText ?? conversation.lastToolResultText ?? "", 40)}"; I answer briefly.`;
  const tokens = splitIntoTokens(text);
  const signature = `mock-sig-${createHash("sha256").update(text).digest("base64url").slice(0, 24)}`;
  return {
    ...reply,
    thinking: { tokens, signature },
    usage: { ...reply.usage, outputTokens: reply.usage.outputTokens + tokens.length, reasoningTokens: tokens.length },
  };
}

export function estimateTokens(characters: number): number {
  return Math.max(1, Math.ceil(characters / 4));
}

export function buildMockReply(
  conversation: MockConversation,
  context: { model: string; keyFingerprint: string; sequence: number },
): MockReply {
  const inputTokens = estimateTokens(conversation.inputCharacters);
  const tool = pickRequestedTool(conversation);
  if (tool) {
    const args = sampleArguments(tool.parameters);
    return {
      textTokens: [],
      toolCall: { id: `call_mock_${context.sequence}`, name: tool.name, arguments: args },
      finishReason: "tool_calls",
      usage: { inputTokens, outputTokens: estimateTokens(tool.name.length + args.length) },
    };
  }
  const plain =
    conversation.lastToolResultText !== undefined
      ? `${context.model} (key ${context.keyFingerprint}) got the tool result: "${preview(conversation.lastToolResultText, 40)}".`
      : `Hello from ${context.model} (key ${context.keyFingerprint}). You said: "${preview(conversation.lastUserText ?? "", 60)}".`;
  const json = conversation.features?.json;
  const textTokens = splitIntoTokens(json ? asRequestedJson(plain, json) : plain);
  return { textTokens, finishReason: "stop", usage: { inputTokens, outputTokens: textTokens.length } };
}

/** Splits JSON argument text into a few pieces so streamed tool calls arrive as several deltas. */
export function splitArguments(args: string, pieces = 3): string[] {
  if (args.length === 0) return [""];
  const size = Math.max(1, Math.ceil(args.length / pieces));
  const parts: string[] = [];
  for (let start = 0; start < args.length; start += size) parts.push(args.slice(start, start + size));
  return parts;
}

export type ContinuationStyle = "exact" | "repeat-last-words" | "restart";

/** How a request relates to a rule's fixed answer (R-ST-4): a prefill, an instructed continuation, or neither. */
export function continuationOf(
  conversation: MockConversation,
  answer: string,
): { kind: "prefill" | "instructed"; delivered: string } | undefined {
  const prefill = conversation.trailingAssistantText;
  if (prefill !== undefined && prefill.trim() !== "" && answer.startsWith(prefill)) return { kind: "prefill", delivered: prefill };
  const previous = conversation.previousAssistantText;
  if (previous !== undefined && previous.trim() !== "" && answer.startsWith(previous)) return { kind: "instructed", delivered: previous };
  return undefined;
}

/** The text a continuation sends: the rest of the answer, the rest after its last words again, or all of it. */
export function continuationText(answer: string, delivered: string, style: ContinuationStyle): string {
  if (style === "restart") return answer;
  const rest = answer.slice(delivered.length);
  if (style === "exact") return rest;
  const words = splitIntoTokens(delivered);
  return words.slice(-2).join("") + rest;
}

/** A rule's fixed answer as the reply, continued where the request continues it. */
export function fixedAnswerReply(conversation: MockConversation, answer: string, style: ContinuationStyle = "exact"): MockReply {
  const continued = continuationOf(conversation, answer);
  const text = continued ? continuationText(answer, continued.delivered, style) : answer;
  const textTokens = splitIntoTokens(text);
  // A remainder that starts with whitespace keeps it on its first token (splitIntoTokens keeps leading spaces).
  return {
    textTokens,
    finishReason: "stop",
    usage: { inputTokens: estimateTokens(conversation.inputCharacters), outputTokens: textTokens.length },
  };
}
