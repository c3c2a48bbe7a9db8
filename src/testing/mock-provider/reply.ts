/**
 * Deterministic healthy answers: a short text naming the model and the key's fingerprint (never the
 * key), or a tool call when the request offers tools and the last user message asks for one.
 */
import { createHash } from "node:crypto";

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
  finishReason: "stop" | "tool_calls";
  usage: { inputTokens: number; outputTokens: number };
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
  const text =
    conversation.lastToolResultText !== undefined
      ? `${context.model} (key ${context.keyFingerprint}) got the tool result: "${preview(conversation.lastToolResultText, 40)}".`
      : `Hello from ${context.model} (key ${context.keyFingerprint}). You said: "${preview(conversation.lastUserText ?? "", 60)}".`;
  const textTokens = splitIntoTokens(text);
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
export function continuationOf(conversation: MockConversation, answer: string): { kind: "prefill" | "instructed"; delivered: string } | undefined {
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
export function fixedAnswerReply(
  conversation: MockConversation,
  answer: string,
  style: ContinuationStyle = "exact",
): MockReply {
  const continued = continuationOf(conversation, answer);
  const text = continued ? continuationText(answer, continued.delivered, style) : answer;
  const textTokens = splitIntoTokens(text);
  // A remainder that starts with whitespace keeps it on its first token (splitIntoTokens keeps leading spaces).
  return { textTokens, finishReason: "stop", usage: { inputTokens: estimateTokens(conversation.inputCharacters), outputTokens: textTokens.length } };
}
