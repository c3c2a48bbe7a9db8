/**
 * OpenAI Responses request → canonical request (R-GW-2, R-GW-6). `instructions` become system parts without
 * a position; `system` / `developer` input messages keep theirs. Function tools, function calls and their
 * outputs, images and reasoning items map; fields the canonical model has no slot for ride in the
 * provider-options bag under `openai-responses`. Input items no other format can hold (files, hosted tool
 * calls, item references) are reported as `untranslatable`: a same-wire upstream still gets the request as
 * sent, any other candidate is `incompatible`.
 */
import type {
  CanonicalContentPart,
  CanonicalImage,
  CanonicalMessage,
  CanonicalRequest,
  CanonicalResponseFormat,
  CanonicalSystemPart,
  CanonicalText,
  CanonicalTool,
  CanonicalToolChoice,
} from "../../ports/canonical.js";
import { unmappedFields, type UnsupportedField } from "../shared/encoding.js";
import { imageFromUrl } from "../shared/images.js";
import { toDialectIssues, type DialectParseResult } from "../shared/validation-issues.js";
import { responsesRequestSchema, type ResponsesRequest } from "./schemas.js";
import { statefulFieldOf } from "./state.js";

export const RESPONSES_FORMAT = "openai-responses";

/** Top-level fields the decoder maps (in whole or, for tools / tool_choice / text / reasoning, in part). */
const MAPPED_FIELDS: ReadonlySet<string> = new Set([
  "model",
  "input",
  "instructions",
  "stream",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "temperature",
  "top_p",
  "max_output_tokens",
  "text",
  "reasoning",
  "top_logprobs",
  "metadata",
  "user",
]);

const EFFORTS = new Set(["minimal", "low", "medium", "high"]);

export interface ResponsesDecoded {
  request: CanonicalRequest;
  /** The first input item the canonical model cannot hold; only the Responses wire can carry the request. */
  untranslatable?: UnsupportedField;
}

export type ResponsesParseResult = DialectParseResult<
  ResponsesDecoded & {
    model: string;
    stream: boolean;
    /** The field that ties the request to state a provider holds (`previous_response_id`, …). */
    statefulField?: string;
  }
>;

type Item = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

class Untranslatable extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(problem);
  }
}

function untranslatable(field: string, what: string): never {
  throw new Untranslatable(field, `The openai-responses request holds ${what}, which no other wire format can express.`);
}

function detailOf(value: unknown): CanonicalImage["detail"] {
  return value === "auto" || value === "low" || value === "high" ? value : undefined;
}

/** Content of a user message or a function-call output: text and images. */
function inputParts(content: unknown, where: string): (CanonicalText | CanonicalImage)[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) untranslatable(where, `content that is neither text nor a list of parts at ${where}`);
  return content.map((part: unknown, index) => {
    const type = isRecord(part) ? part.type : undefined;
    if (isRecord(part) && (type === "input_text" || type === "output_text") && typeof part.text === "string") {
      return { type: "text", text: part.text };
    }
    if (isRecord(part) && type === "input_image") {
      if (typeof part.image_url === "string" && part.image_url !== "") return imageFromUrl(part.image_url, detailOf(part.detail));
      return untranslatable("input_image.file_id", `an uploaded image (file_id) at ${where}[${index}]`);
    }
    return untranslatable(`${String(type ?? "content")}`, `a "${String(type)}" part at ${where}[${index}]`);
  });
}

function assistantText(content: unknown, where: string): CanonicalText[] {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  if (!Array.isArray(content)) return untranslatable(where, `assistant content that is not text at ${where}`);
  return content.flatMap((part: unknown, index): CanonicalText[] => {
    if (isRecord(part) && typeof part.text === "string") return [{ type: "text", text: part.text }];
    if (isRecord(part) && part.type === "refusal" && typeof part.refusal === "string") return [{ type: "text", text: part.refusal }];
    return untranslatable(`${where}[${index}]`, `an assistant part that is not text at ${where}[${index}]`);
  });
}

function textOnly(content: unknown, where: string): string {
  const parts = inputParts(content, where);
  if (parts.some((part) => part.type !== "text")) untranslatable(where, `an image in an instruction message at ${where}`);
  return parts.map((part) => (part as CanonicalText).text).join("");
}

/** Builds canonical messages from input items, merging what one turn spreads over several items. */
class Conversation {
  readonly messages: CanonicalMessage[] = [];
  readonly systemParts: CanonicalSystemPart[] = [];

  private tail(role: CanonicalMessage["role"]): CanonicalMessage {
    const last = this.messages[this.messages.length - 1];
    if (last?.role === role) return last;
    const message: CanonicalMessage = { role, content: [] };
    this.messages.push(message);
    return message;
  }

  add(item: Item, index: number): void {
    const where = `input[${index}]`;
    const type = typeof item.type === "string" ? item.type : typeof item.role === "string" ? "message" : undefined;
    switch (type) {
      case "message":
        return this.addMessage(item, where);
      case "function_call":
        this.tail("assistant").content.push({
          type: "tool-call",
          id: String(item.call_id ?? item.id ?? ""),
          name: String(item.name ?? ""),
          arguments: typeof item.arguments === "string" ? item.arguments : "",
        });
        return;
      case "function_call_output": {
        const parts = inputParts(item.output, `${where}.output`);
        const text = parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
        const structured = parts.length > 1 || parts.some((part) => part.type === "image");
        this.tail("tool").content.push({
          type: "tool-result",
          toolCallId: String(item.call_id ?? ""),
          content: text,
          ...(structured ? { parts } : {}),
        });
        return;
      }
      case "reasoning": {
        const summary = Array.isArray(item.summary) ? item.summary : [];
        const text = summary.flatMap((part: unknown) => (isRecord(part) && typeof part.text === "string" ? [part.text] : [])).join("\n\n");
        this.tail("assistant").content.push({
          type: "thinking",
          text,
          origin: "openai-responses",
          ...(typeof item.id === "string" ? { itemId: item.id } : {}),
          ...(typeof item.encrypted_content === "string" ? { redactedData: item.encrypted_content } : {}),
        });
        return;
      }
      case "item_reference":
        return untranslatable("item_reference", `a reference to a stored item at ${where}`);
      default:
        return untranslatable(String(type ?? "input"), `a "${String(type)}" item at ${where}`);
    }
  }

  private addMessage(item: Item, where: string): void {
    const role = item.role;
    if (role === "system" || role === "developer") {
      // Every input instruction keeps its position; only `instructions` has none (see the encoder).
      this.systemParts.push({ role, text: textOnly(item.content, `${where}.content`), beforeMessage: this.messages.length });
      return;
    }
    if (role === "assistant") {
      this.tail("assistant").content.push(...assistantText(item.content, `${where}.content`));
      return;
    }
    if (role === "user") {
      const parts: CanonicalContentPart[] = inputParts(item.content, `${where}.content`);
      this.messages.push({ role: "user", content: parts });
      return;
    }
    untranslatable(`${where}.role`, `a message with role ${JSON.stringify(role)} at ${where}`);
  }
}

function toToolChoice(choice: unknown): CanonicalToolChoice | undefined {
  if (choice === "auto" || choice === "none" || choice === "required") return choice;
  if (isRecord(choice) && choice.type === "function" && typeof choice.name === "string") return { name: choice.name };
  return undefined;
}

function toResponseFormat(format: unknown): CanonicalResponseFormat | undefined {
  if (!isRecord(format)) return undefined;
  if (format.type === "text") return { type: "text" };
  if (format.type === "json_object") return { type: "json" };
  if (format.type === "json_schema" && typeof format.name === "string") {
    return {
      type: "json-schema",
      name: format.name,
      schema: isRecord(format.schema) ? format.schema : {},
      ...(typeof format.description === "string" ? { description: format.description } : {}),
      ...(typeof format.strict === "boolean" ? { strict: format.strict } : {}),
    };
  }
  return undefined;
}

function present<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}

/** The bag: unmapped fields, plus the parts of partly mapped fields the canonical model has no slot for. */
function providerOptionsOf(body: ResponsesRequest): Record<string, unknown> | undefined {
  const bag: Record<string, unknown> = { ...unmappedFields(body, MAPPED_FIELDS) };
  const hosted = (body.tools ?? []).filter((tool) => tool.type !== "function");
  if (hosted.length > 0) bag.tools = hosted;
  if (present(body.tool_choice) && toToolChoice(body.tool_choice) === undefined) bag.tool_choice = body.tool_choice;
  if (isRecord(body.text)) {
    const { format: _format, ...rest } = body.text;
    if (Object.keys(rest).length > 0) bag.text = rest;
  }
  if (isRecord(body.reasoning)) {
    const { effort, ...rest } = body.reasoning;
    // An effort no other format knows ("none", "xhigh") stays with the rest for the same wire.
    if (present(effort) && !EFFORTS.has(String(effort))) bag.reasoning = body.reasoning;
    else if (Object.values(rest).some(present)) bag.reasoning = rest;
  }
  return Object.keys(bag).length > 0 ? bag : undefined;
}

export function toCanonicalFromResponses(body: ResponsesRequest): ResponsesDecoded {
  const conversation = new Conversation();
  let problem: UnsupportedField | undefined;
  const input = typeof body.input === "string" ? [{ role: "user", content: body.input }] : (body.input ?? []);
  input.forEach((item, index) => {
    if (problem) return;
    try {
      conversation.add(item as Item, index);
    } catch (error) {
      if (!(error instanceof Untranslatable)) throw error;
      problem = { field: error.field, problem: error.message };
    }
  });
  const systemParts: CanonicalSystemPart[] = [
    ...(typeof body.instructions === "string" && body.instructions !== "" ? [{ role: "system" as const, text: body.instructions }] : []),
    ...conversation.systemParts,
  ];
  const tools: CanonicalTool[] = (body.tools ?? []).flatMap((tool) =>
    tool.type === "function" && typeof tool.name === "string"
      ? [
          {
            name: tool.name,
            ...(typeof tool.description === "string" ? { description: tool.description } : {}),
            parameters: isRecord(tool.parameters) ? tool.parameters : { type: "object", properties: {} },
            ...(typeof tool.strict === "boolean" ? { strict: tool.strict } : {}),
          },
        ]
      : [],
  );
  const toolChoice = toToolChoice(body.tool_choice);
  const responseFormat = isRecord(body.text) ? toResponseFormat(body.text.format) : undefined;
  const effort = isRecord(body.reasoning) ? body.reasoning.effort : undefined;
  const topLogprobs = typeof body.top_logprobs === "number" ? body.top_logprobs : undefined;
  const extra = providerOptionsOf(body);
  const request: CanonicalRequest = {
    ...(systemParts.length > 0 ? { system: systemParts.map((part) => part.text).join("\n\n"), systemParts } : {}),
    messages: conversation.messages,
    ...(tools.length > 0 ? { tools } : {}),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(typeof body.parallel_tool_calls === "boolean" ? { parallelToolCalls: body.parallel_tool_calls } : {}),
    ...(typeof body.temperature === "number" ? { temperature: body.temperature } : {}),
    ...(typeof body.top_p === "number" ? { topP: body.top_p } : {}),
    ...(typeof body.max_output_tokens === "number" ? { maxTokens: body.max_output_tokens } : {}),
    ...(topLogprobs !== undefined ? { topLogprobs, logprobs: true } : {}),
    ...(responseFormat === undefined ? {} : { responseFormat }),
    ...(typeof effort === "string" && EFFORTS.has(effort) ? { reasoning: { enabled: true, effort: effort as "low" } } : {}),
    stream: body.stream === true,
    ...(isRecord(body.metadata) ? { metadata: body.metadata as Record<string, string> } : {}),
    ...(typeof body.user === "string" ? { user: body.user } : {}),
    ...(extra ? { providerOptions: { [RESPONSES_FORMAT]: extra } } : {}),
  };
  return { request, ...(problem ? { untranslatable: problem } : {}) };
}

export function parseResponsesRequest(body: unknown): ResponsesParseResult {
  const parsed = responsesRequestSchema.safeParse(body);
  if (!parsed.success) return { ok: false, issues: toDialectIssues(parsed.error.issues) };
  const data = parsed.data;
  const statefulField = statefulFieldOf(data);
  return {
    ok: true,
    ...toCanonicalFromResponses(data),
    model: data.model,
    stream: data.stream === true,
    ...(statefulField ? { statefulField } : {}),
  };
}
