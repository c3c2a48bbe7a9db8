/**
 * OpenAI chat completions request → canonical request (R-GW-2). Validation failures come back as
 * `{ path, message }` issues for the 400 answer (R-GW-4).
 */
import type {
  CanonicalContentPart,
  CanonicalMessage,
  CanonicalRequest,
  CanonicalToolChoice,
} from "../../../ports/canonical.js";
import { imageFromUrl } from "../shared/image-source.js";
import { toDialectIssues, type DialectParseResult } from "../shared/validation-issues.js";
import { openAIChatRequestSchema, type OpenAIChatRequest, type OpenAIMessage } from "./openai-request-schema.js";

export type OpenAIParseResult = DialectParseResult<{
  request: CanonicalRequest;
  /** The `model` field as sent: an alias, `provider/model`, or an agent id (R-GW-3). */
  model: string;
  stream: boolean;
  /** `stream_options.include_usage`: the client wants a usage chunk before `[DONE]`. */
  includeUsage: boolean;
}>;

function joinText(content: string | { text: string }[]): string {
  return typeof content === "string" ? content : content.map((part) => part.text).join("");
}

function toCanonicalMessage(message: OpenAIMessage): CanonicalMessage | undefined {
  switch (message.role) {
    case "system":
    case "developer":
      return undefined;
    case "user": {
      const content: CanonicalContentPart[] =
        typeof message.content === "string"
          ? [{ type: "text", text: message.content }]
          : message.content.map((part) =>
              part.type === "text" ? { type: "text", text: part.text } : imageFromUrl(part.image_url.url),
            );
      return { role: "user", content };
    }
    case "assistant": {
      const content: CanonicalContentPart[] = [];
      if (typeof message.content === "string") {
        if (message.content !== "") content.push({ type: "text", text: message.content });
      } else if (message.content) {
        for (const part of message.content) {
          content.push({ type: "text", text: part.type === "text" ? part.text : part.refusal });
        }
      } else if (typeof message.refusal === "string") {
        content.push({ type: "text", text: message.refusal });
      }
      for (const call of message.tool_calls ?? []) {
        content.push({ type: "tool-call", id: call.id, name: call.function.name, arguments: call.function.arguments });
      }
      return { role: "assistant", content };
    }
    case "tool":
      return {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: message.tool_call_id, content: joinText(message.content) }],
      };
  }
}

function toToolChoice(choice: OpenAIChatRequest["tool_choice"]): CanonicalToolChoice | undefined {
  if (choice === undefined) return undefined;
  return typeof choice === "string" ? choice : { name: choice.function.name };
}

export function toCanonicalFromOpenAI(body: OpenAIChatRequest): CanonicalRequest {
  const systemTexts = body.messages.flatMap((message) =>
    message.role === "system" || message.role === "developer" ? [joinText(message.content)] : [],
  );
  const messages = body.messages.flatMap((message) => {
    const converted = toCanonicalMessage(message);
    return converted ? [converted] : [];
  });
  const toolChoice = toToolChoice(body.tool_choice);
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  const stream = body.stream === true;
  return {
    ...(systemTexts.length > 0 ? { system: systemTexts.join("\n\n") } : {}),
    messages,
    ...(body.tools && body.tools.length > 0
      ? {
          tools: body.tools.map((tool) => ({
            name: tool.function.name,
            ...(tool.function.description === undefined ? {} : { description: tool.function.description }),
            parameters: tool.function.parameters ?? { type: "object", properties: {} },
          })),
        }
      : {}),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(typeof body.temperature === "number" ? { temperature: body.temperature } : {}),
    ...(typeof body.top_p === "number" ? { topP: body.top_p } : {}),
    ...(typeof maxTokens === "number" ? { maxTokens } : {}),
    ...(body.stop === null || body.stop === undefined
      ? {}
      : { stop: typeof body.stop === "string" ? [body.stop] : body.stop }),
    stream,
    ...(body.metadata ? { metadata: body.metadata } : {}),
  };
}

export function parseOpenAIChatRequest(body: unknown): OpenAIParseResult {
  const parsed = openAIChatRequestSchema.safeParse(body);
  if (!parsed.success) return { ok: false, issues: toDialectIssues(parsed.error.issues) };
  const data = parsed.data;
  return {
    ok: true,
    request: toCanonicalFromOpenAI(data),
    model: data.model,
    stream: data.stream === true,
    includeUsage: data.stream_options?.include_usage === true,
  };
}
