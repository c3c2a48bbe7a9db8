/** Canonical request → OpenAI Chat Completions request (R-GW-2). */
import type {
  CanonicalMessage,
  CanonicalRequest,
  CanonicalToolCall,
  CanonicalToolChoice,
  CanonicalToolResult,
} from "../../ports/canonical.js";
import { imageAsUrl } from "../shared/images.js";
import type { OpenAiChatRequest, OpenAiRequestMessage } from "./openai-wire.js";

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

export function toOpenAiRequest(
  request: CanonicalRequest,
  options: { model: string; stream: boolean; maxTokensField: MaxTokensField },
): OpenAiChatRequest {
  const messages: OpenAiRequestMessage[] = [];
  if (request.system) messages.push({ role: "system", content: request.system });
  for (const message of request.messages) messages.push(...toOpenAiMessages(message));

  const wire: OpenAiChatRequest = { model: options.model, messages };
  if (request.tools && request.tools.length > 0) {
    wire.tools = request.tools.map((tool) => ({
      type: "function" as const,
      function: {
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        parameters: tool.parameters,
      },
    }));
  }
  if (request.toolChoice !== undefined) wire.tool_choice = toOpenAiToolChoice(request.toolChoice);
  if (request.temperature !== undefined) wire.temperature = request.temperature;
  if (request.topP !== undefined) wire.top_p = request.topP;
  if (request.maxTokens !== undefined) wire[options.maxTokensField] = request.maxTokens;
  if (request.stop && request.stop.length > 0) wire.stop = request.stop;
  if (options.stream) {
    wire.stream = true;
    // Without this the stream carries no usage, and R-ST-3 needs usage on every answer.
    wire.stream_options = { include_usage: true };
  }
  return wire;
}

function toOpenAiToolChoice(choice: CanonicalToolChoice): NonNullable<OpenAiChatRequest["tool_choice"]> {
  if (typeof choice === "string") return choice;
  return { type: "function", function: { name: choice.name } };
}

/**
 * One canonical message can become several wire messages: OpenAI carries each tool result as its own
 * `tool` message, and those must directly follow the assistant message that made the calls.
 */
export function toOpenAiMessages(message: CanonicalMessage): OpenAiRequestMessage[] {
  const toolResults = message.content.filter((part): part is CanonicalToolResult => part.type === "tool-result");
  const wire: OpenAiRequestMessage[] = toolResults.map((result) => ({
    role: "tool",
    tool_call_id: result.toolCallId,
    content: result.content,
  }));

  if (message.role === "assistant") {
    const text = message.content
      .flatMap((part) => (part.type === "text" ? [part.text] : []))
      .join("");
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

  const parts = message.content.flatMap((part): OpenAiUserPart[] => {
    if (part.type === "text") return [{ type: "text", text: part.text }];
    if (part.type === "image") return [{ type: "image_url", image_url: { url: imageAsUrl(part) } }];
    return [];
  });
  if (parts.length === 0) return wire;
  const [first] = parts;
  // A single text part stays a plain string, the form every compatible server understands.
  wire.push({ role: "user", content: parts.length === 1 && first?.type === "text" ? first.text : parts });
  return wire;
}
