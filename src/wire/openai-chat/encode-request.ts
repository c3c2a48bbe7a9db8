/** Canonical request → OpenAI Chat Completions request (R-GW-2, R-GW-6: lossless for what OpenAI can say). */
import type {
  CanonicalImage,
  CanonicalMessage,
  CanonicalRequest,
  CanonicalSystemPart,
  CanonicalToolCall,
  CanonicalToolChoice,
  CanonicalToolResult,
} from "../../ports/canonical.js";
import { effortForBudget, EncodingNotes, ownProviderOptions, type WireEncoding } from "../shared/encoding.js";
import { imageAsUrl } from "../shared/images.js";
import { openAiResponseFormat } from "../shared/openai-response-format.js";
import type { OpenAiChatRequest, OpenAiRequestMessage } from "./schemas.js";

type OpenAiUserPart = Exclude<Extract<OpenAiRequestMessage, { role: "user" }>["content"], string>[number];

/**
 * OpenAI's own reasoning models reject `max_tokens`; most compatible servers (vLLM, older gateways)
 * only know `max_tokens`. Which one to send is decided from the base URL.
 */
export type MaxTokensField = "max_tokens" | "max_completion_tokens";

export function maxTokensFieldFor(baseUrl: string): MaxTokensField {
  try {
    return new URL(baseUrl).hostname === "api.openai.com" ? "max_completion_tokens" : "max_tokens";
  } catch {
    return "max_tokens";
  }
}

export interface OpenAiEncodeOptions {
  model: string;
  stream: boolean;
  maxTokensField: MaxTokensField;
}

/** The request body, or the field OpenAI cannot carry (R-GW-6 `incompatible`). */
export function encodeOpenAiRequest(request: CanonicalRequest, options: OpenAiEncodeOptions): WireEncoding<OpenAiChatRequest> {
  const notes = new EncodingNotes("openai-chat");
  const own = ownProviderOptions(request.providerOptions, notes);
  const wire: OpenAiChatRequest = { ...own, model: options.model, messages: openAiMessages(request, notes) };
  if (request.tools && request.tools.length > 0) {
    wire.tools = request.tools.map((tool) => {
      if (tool.cache) notes.drop("cache_control");
      return {
        type: "function" as const,
        function: {
          name: tool.name,
          ...(tool.description !== undefined ? { description: tool.description } : {}),
          parameters: tool.parameters,
          ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
        },
      };
    });
    if (request.parallelToolCalls !== undefined) wire.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.toolChoice !== undefined) wire.tool_choice = toOpenAiToolChoice(request.toolChoice);
  if (request.temperature !== undefined) wire.temperature = request.temperature;
  if (request.topP !== undefined) wire.top_p = request.topP;
  if (request.topK !== undefined) notes.drop("top_k");
  if (request.maxTokens !== undefined) wire[options.maxTokensField] = request.maxTokens;
  if (request.stop && request.stop.length > 0) wire.stop = request.stop;
  if (request.seed !== undefined) wire.seed = request.seed;
  if (request.frequencyPenalty !== undefined) wire.frequency_penalty = request.frequencyPenalty;
  if (request.presencePenalty !== undefined) wire.presence_penalty = request.presencePenalty;
  if (request.logitBias !== undefined) wire.logit_bias = request.logitBias;
  if (request.logprobs !== undefined) wire.logprobs = request.logprobs;
  if (request.topLogprobs !== undefined) wire.top_logprobs = request.topLogprobs;
  // A canonical answer has one message; more choices would be lost on the way back.
  if (request.choiceCount !== undefined && request.choiceCount > 1) notes.reject("n", "Detour relays one choice per answer");
  if (request.responseFormat) {
    wire.response_format = openAiResponseFormat(request.responseFormat, (spec) => ({ type: "json_schema" as const, json_schema: spec }));
  }
  if (request.reasoning) {
    const { reasoning } = request;
    // No OpenAI switch turns reasoning off on a reasoning model; a disabled request simply sends none.
    if (reasoning.enabled) wire.reasoning_effort = reasoning.effort ?? effortForBudget(reasoning.budgetTokens ?? 0);
  }
  if (request.metadata && Object.keys(request.metadata).length > 0) wire.metadata = request.metadata;
  if (request.user !== undefined) wire.user = request.user;
  if (options.stream) {
    wire.stream = true;
    // Without this the stream carries no usage, and R-ST-3 needs usage on every answer.
    wire.stream_options = { include_usage: true };
  } else {
    delete wire.stream;
    delete wire.stream_options;
  }
  return notes.finish(wire);
}

function toOpenAiToolChoice(choice: CanonicalToolChoice): NonNullable<OpenAiChatRequest["tool_choice"]> {
  if (typeof choice === "string") return choice;
  return { type: "function", function: { name: choice.name } };
}

function systemParts(request: CanonicalRequest): CanonicalSystemPart[] {
  if (request.systemParts) return request.systemParts;
  return request.system ? [{ role: "system", text: request.system }] : [];
}

function openAiMessages(request: CanonicalRequest, notes: EncodingNotes): OpenAiRequestMessage[] {
  const system = systemParts(request);
  const messages: OpenAiRequestMessage[] = [];
  const pushSystem = (part: CanonicalSystemPart) => {
    if (part.cache) notes.drop("cache_control");
    messages.push({ role: part.role, content: part.text });
  };
  // Parts without a position came first; the others go back where the client had them.
  for (const part of system) if (part.beforeMessage === undefined) pushSystem(part);
  request.messages.forEach((message, index) => {
    for (const part of system) if (part.beforeMessage === index) pushSystem(part);
    messages.push(...toOpenAiMessages(message, notes));
  });
  for (const part of system) if (part.beforeMessage !== undefined && part.beforeMessage >= request.messages.length) pushSystem(part);
  return messages;
}

function userPart(part: CanonicalMessage["content"][number], notes: EncodingNotes): OpenAiUserPart[] {
  if (part.type !== "text" && part.type !== "image") return [];
  if (part.cache) notes.drop("cache_control");
  if (part.type === "text") return [{ type: "text", text: part.text }];
  return [imagePart(part)];
}

function imagePart(image: CanonicalImage): OpenAiUserPart {
  return { type: "image_url", image_url: { url: imageAsUrl(image), ...(image.detail ? { detail: image.detail } : {}) } };
}

/**
 * One canonical message can become several wire messages: OpenAI carries each tool result as its own
 * `tool` message, and those must directly follow the assistant message that made the calls. Tool
 * messages take text only, so images inside tool results follow as one user message.
 */
export function toOpenAiMessages(message: CanonicalMessage, notes = new EncodingNotes("openai-chat")): OpenAiRequestMessage[] {
  const toolResults = message.content.filter((part): part is CanonicalToolResult => part.type === "tool-result");
  const wire: OpenAiRequestMessage[] = toolResults.map((result) => {
    if (result.cache || result.parts?.some((part) => part.cache)) notes.drop("cache_control");
    return { role: "tool", tool_call_id: result.toolCallId, content: result.content };
  });
  const resultImages = toolResults.flatMap((result) =>
    (result.parts ?? []).flatMap((part) => (part.type === "image" ? [imagePart(part)] : [])),
  );
  if (resultImages.length > 0) wire.push({ role: "user", content: resultImages });

  if (message.role === "assistant") {
    if (message.content.some((part) => part.type === "thinking")) notes.drop("thinking");
    if (message.content.some((part) => part.type !== "thinking" && part.cache !== undefined)) notes.drop("cache_control");
    const text = message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
    const toolCalls = message.content.filter((part): part is CanonicalToolCall => part.type === "tool-call");
    // Images in assistant turns have no OpenAI representation and are dropped.
    if (text === "" && toolCalls.length === 0) return wire;
    wire.push({
      role: "assistant",
      content: text === "" ? null : text,
      ...(toolCalls.length > 0
        ? {
            tool_calls: toolCalls.map((call) => ({
              id: call.id,
              type: "function" as const,
              function: { name: call.name, arguments: call.arguments },
            })),
          }
        : {}),
    });
    return wire;
  }

  const parts = message.content.flatMap((part) => userPart(part, notes));
  if (parts.length === 0) return wire;
  const [first] = parts;
  // A single text part stays a plain string, the form every compatible server understands.
  wire.push({ role: "user", content: parts.length === 1 && first?.type === "text" ? first.text : parts });
  return wire;
}
