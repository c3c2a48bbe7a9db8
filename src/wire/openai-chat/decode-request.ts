/**
 * OpenAI chat completions request → canonical request (R-GW-2, R-GW-6). Validation failures come back as
 * `{ path, message }` issues for the 400 answer (R-GW-4). Fields the canonical model has no slot for ride
 * in the provider-options bag under `openai-chat`.
 */
import type {
  CanonicalContentPart,
  CanonicalMessage,
  CanonicalRequest,
  CanonicalResponseFormat,
  CanonicalSystemPart,
  CanonicalToolChoice,
} from "../../ports/canonical.js";
import { unmappedFields } from "../shared/encoding.js";
import { imageFromUrl } from "../shared/images.js";
import { toDialectIssues, type DialectParseResult } from "../shared/validation-issues.js";
import { OPENAI_MAPPED_FIELDS, openAIChatRequestSchema, type OpenAIChatRequest, type OpenAIMessage } from "./request-schema.js";
import { vouchesForOpenAIChatRequest } from "./request-check.js";

export type OpenAIParseResult = DialectParseResult<{
  request: CanonicalRequest;
  /** The `model` field as sent: an alias, `provider/model`, or an agent id (R-GW-3). */
  model: string;
  stream: boolean;
  /** `stream_options.include_usage`: the client wants a usage chunk before `[DONE]`. */
  includeUsage: boolean;
}>;

const MAPPED_WITHOUT_EFFORT: ReadonlySet<string> = new Set([...OPENAI_MAPPED_FIELDS].filter((field) => field !== "reasoning_effort"));

function joinText(content: string | { text: string }[]): string {
  return typeof content === "string" ? content : content.map((part) => part.text).join("");
}

function toCanonicalMessage(message: Exclude<OpenAIMessage, { role: "system" | "developer" }>): CanonicalMessage {
  switch (message.role) {
    case "user": {
      const content: CanonicalContentPart[] =
        typeof message.content === "string"
          ? [{ type: "text", text: message.content }]
          : message.content.map((part) =>
              part.type === "text" ? { type: "text", text: part.text } : imageFromUrl(part.image_url.url, part.image_url.detail),
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

function toResponseFormat(format: OpenAIChatRequest["response_format"]): CanonicalResponseFormat | undefined {
  if (!format) return undefined;
  if (format.type === "text") return { type: "text" };
  if (format.type === "json_object") return { type: "json" };
  const spec = format.json_schema;
  return {
    type: "json-schema",
    name: spec.name,
    schema: spec.schema ?? {},
    ...(spec.description === undefined ? {} : { description: spec.description }),
    ...(typeof spec.strict === "boolean" ? { strict: spec.strict } : {}),
  };
}

function isPresent<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}

export function toCanonicalFromOpenAI(body: OpenAIChatRequest): CanonicalRequest {
  const systemParts: CanonicalSystemPart[] = [];
  const messages: CanonicalMessage[] = [];
  for (const message of body.messages) {
    if (message.role === "system" || message.role === "developer") {
      const part: CanonicalSystemPart = { role: message.role, text: joinText(message.content) };
      // Instructions before the first message need no position; later ones keep theirs (R-GW-6).
      if (messages.length > 0) part.beforeMessage = messages.length;
      systemParts.push(part);
    } else {
      messages.push(toCanonicalMessage(message));
    }
  }
  const toolChoice = toToolChoice(body.tool_choice);
  const responseFormat = toResponseFormat(body.response_format);
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  const stream = body.stream === true;
  const effort = body.reasoning_effort;
  // "none" has no counterpart elsewhere: it rides in the bag, back to OpenAI verbatim, a named drop elsewhere.
  const extra = unmappedFields(body, effort === "none" ? MAPPED_WITHOUT_EFFORT : OPENAI_MAPPED_FIELDS);
  return {
    ...(systemParts.length > 0 ? { system: systemParts.map((part) => part.text).join("\n\n"), systemParts } : {}),
    messages,
    ...(body.tools && body.tools.length > 0
      ? {
          tools: body.tools.map((tool) => ({
            name: tool.function.name,
            ...(tool.function.description === undefined ? {} : { description: tool.function.description }),
            parameters: tool.function.parameters ?? { type: "object", properties: {} },
            ...(typeof tool.function.strict === "boolean" ? { strict: tool.function.strict } : {}),
          })),
        }
      : {}),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(isPresent(body.parallel_tool_calls) ? { parallelToolCalls: body.parallel_tool_calls } : {}),
    ...(typeof body.temperature === "number" ? { temperature: body.temperature } : {}),
    ...(typeof body.top_p === "number" ? { topP: body.top_p } : {}),
    ...(typeof maxTokens === "number" ? { maxTokens } : {}),
    ...(body.stop === null || body.stop === undefined ? {} : { stop: typeof body.stop === "string" ? [body.stop] : body.stop }),
    ...(isPresent(body.seed) ? { seed: body.seed } : {}),
    ...(isPresent(body.frequency_penalty) ? { frequencyPenalty: body.frequency_penalty } : {}),
    ...(isPresent(body.presence_penalty) ? { presencePenalty: body.presence_penalty } : {}),
    ...(isPresent(body.logit_bias) ? { logitBias: body.logit_bias } : {}),
    ...(isPresent(body.logprobs) ? { logprobs: body.logprobs } : {}),
    ...(isPresent(body.top_logprobs) ? { topLogprobs: body.top_logprobs } : {}),
    ...(isPresent(body.n) ? { choiceCount: body.n } : {}),
    ...(responseFormat === undefined ? {} : { responseFormat }),
    ...(isPresent(effort) && effort !== "none" ? { reasoning: { enabled: true, effort } } : {}),
    stream,
    ...(body.metadata ? { metadata: body.metadata } : {}),
    ...(body.user === undefined ? {} : { user: body.user }),
    ...(extra ? { providerOptions: { "openai-chat": extra } } : {}),
  };
}

export function parseOpenAIChatRequest(body: unknown): OpenAIParseResult {
  let data: OpenAIChatRequest;
  if (vouchesForOpenAIChatRequest(body)) data = body;
  else {
    const parsed = openAIChatRequestSchema.safeParse(body);
    if (!parsed.success) return { ok: false, issues: toDialectIssues(parsed.error.issues) };
    data = parsed.data;
  }
  return {
    ok: true,
    request: toCanonicalFromOpenAI(data),
    model: data.model,
    stream: data.stream === true,
    includeUsage: data.stream_options?.include_usage === true,
  };
}
