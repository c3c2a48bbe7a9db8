/**
 * Canonical request → OpenAI Responses request (R-GW-2, R-GW-6: lossless for what the Responses API can say).
 * System parts without a position become `instructions`; positioned ones stay input messages where the client
 * had them. Detour is stateless: unless the client itself said otherwise, `store: false` is sent, so nothing
 * is kept upstream that a later request could come to depend on.
 */
import type { CanonicalMessage, CanonicalRequest, CanonicalSystemPart, CanonicalToolChoice } from "../../ports/canonical.js";
import { effortForBudget, EncodingNotes, ownProviderOptions, type WireEncoding } from "../shared/encoding.js";
import { imageAsUrl } from "../shared/images.js";
import { openAiResponseFormat } from "../shared/openai-response-format.js";

export interface ResponsesEncodeOptions {
  model: string;
  stream: boolean;
}

type WireItem = Record<string, unknown>;

export type ResponsesWireRequest = Record<string, unknown> & { model: string; input: WireItem[] };

function systemPartsOf(request: CanonicalRequest): CanonicalSystemPart[] {
  if (request.systemParts) return request.systemParts;
  return request.system ? [{ role: "system", text: request.system }] : [];
}

function contentParts(parts: CanonicalMessage["content"], notes: EncodingNotes): WireItem[] {
  return parts.flatMap((part): WireItem[] => {
    if (part.type !== "text" && part.type !== "image") return [];
    if (part.cache) notes.drop("cache_control");
    if (part.type === "text") return [{ type: "input_text", text: part.text }];
    return [{ type: "input_image", image_url: imageAsUrl(part), detail: part.detail ?? "auto" }];
  });
}

function messageItems(message: CanonicalMessage, notes: EncodingNotes): WireItem[] {
  if (message.role === "user") {
    const content = contentParts(message.content, notes);
    return content.length > 0 ? [{ role: "user", content }] : [];
  }
  const items: WireItem[] = [];
  let text = "";
  const flushText = () => {
    if (text !== "") items.push({ type: "message", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] });
    text = "";
  };
  for (const part of message.content) {
    switch (part.type) {
      case "text":
        if (part.cache) notes.drop("cache_control");
        text += part.text;
        break;
      case "tool-call":
        if (part.cache) notes.drop("cache_control");
        flushText();
        items.push({ type: "function_call", call_id: part.id, name: part.name, arguments: part.arguments });
        break;
      case "tool-result": {
        if (part.cache || part.parts?.some((inner) => inner.cache)) notes.drop("cache_control");
        const output = part.parts ? contentParts(part.parts, notes) : part.content;
        items.push({ type: "function_call_output", call_id: part.toolCallId, output });
        break;
      }
      case "thinking":
        if (part.origin !== "openai-responses") {
          // Anthropic's blocks are signed for Anthropic: the Responses API cannot take them back.
          notes.drop("thinking");
          break;
        }
        flushText();
        items.push({
          type: "reasoning",
          ...(part.itemId !== undefined ? { id: part.itemId } : {}),
          summary: part.text === "" ? [] : [{ type: "summary_text", text: part.text }],
          ...(part.redactedData !== undefined ? { encrypted_content: part.redactedData } : {}),
        });
        break;
      case "image":
        // Images in assistant turns have no Responses representation.
        notes.drop("image");
        break;
    }
  }
  flushText();
  return items;
}

function inputItems(request: CanonicalRequest, system: CanonicalSystemPart[], notes: EncodingNotes): WireItem[] {
  const items: WireItem[] = [];
  const pushSystem = (part: CanonicalSystemPart) => {
    if (part.cache) notes.drop("cache_control");
    items.push({ role: part.role, content: part.text });
  };
  request.messages.forEach((message, index) => {
    for (const part of system) if (part.beforeMessage === index) pushSystem(part);
    items.push(...messageItems(message, notes));
  });
  for (const part of system) if (part.beforeMessage !== undefined && part.beforeMessage >= request.messages.length) pushSystem(part);
  return items;
}

function toolChoiceOf(choice: CanonicalToolChoice): unknown {
  return typeof choice === "string" ? choice : { type: "function", name: choice.name };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The request body, or the field the Responses API cannot carry (R-GW-6 `incompatible`). */
export function encodeResponsesRequest(request: CanonicalRequest, options: ResponsesEncodeOptions): WireEncoding<ResponsesWireRequest> {
  const notes = new EncodingNotes("openai-responses");
  const own = ownProviderOptions(request.providerOptions, notes);
  const { tools: hostedTools, tool_choice: ownToolChoice, text: ownText, reasoning: ownReasoning, ...rest } = own;
  const system = systemPartsOf(request);
  const instructions = system.filter((part) => part.beforeMessage === undefined);
  for (const part of instructions) if (part.cache) notes.drop("cache_control");
  const wire: ResponsesWireRequest = {
    ...rest,
    model: options.model,
    ...(instructions.length > 0 ? { instructions: instructions.map((part) => part.text).join("\n\n") } : {}),
    input: inputItems(request, system, notes),
  };
  const functionTools = (request.tools ?? []).map((tool) => {
    if (tool.cache) notes.drop("cache_control");
    return {
      type: "function",
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      parameters: tool.parameters,
      ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
    };
  });
  const tools = [...functionTools, ...(Array.isArray(hostedTools) ? hostedTools : [])];
  if (tools.length > 0) wire.tools = tools;
  if (request.parallelToolCalls !== undefined) wire.parallel_tool_calls = request.parallelToolCalls;
  if (ownToolChoice !== undefined) wire.tool_choice = ownToolChoice;
  else if (request.toolChoice !== undefined) wire.tool_choice = toolChoiceOf(request.toolChoice);
  if (request.temperature !== undefined) wire.temperature = request.temperature;
  if (request.topP !== undefined) wire.top_p = request.topP;
  if (request.topK !== undefined) notes.drop("top_k");
  if (request.maxTokens !== undefined) wire.max_output_tokens = request.maxTokens;
  // No stop sequences on this wire: the answer would run past where the client wanted it to end.
  if (request.stop && request.stop.length > 0) notes.reject("stop", "the answer would not end where the client asked");
  if (request.seed !== undefined) notes.drop("seed");
  if (request.frequencyPenalty !== undefined) notes.drop("frequency_penalty");
  if (request.presencePenalty !== undefined) notes.drop("presence_penalty");
  if (request.logitBias !== undefined && Object.keys(request.logitBias).length > 0) notes.reject("logit_bias");
  if (request.topLogprobs !== undefined) wire.top_logprobs = request.topLogprobs;
  if (request.logprobs && wire.include === undefined) wire.include = ["message.output_text.logprobs"];
  if (request.choiceCount !== undefined && request.choiceCount > 1) notes.reject("n", "Detour relays one choice per answer");
  const text = {
    ...record(ownText),
    ...(request.responseFormat
      ? { format: openAiResponseFormat(request.responseFormat, (spec) => ({ type: "json_schema", ...spec })) }
      : {}),
  };
  if (Object.keys(text).length > 0) wire.text = text;
  const effort = request.reasoning?.enabled
    ? (request.reasoning.effort ?? effortForBudget(request.reasoning.budgetTokens ?? 0))
    : undefined;
  const reasoning = { ...record(ownReasoning), ...(effort !== undefined && record(ownReasoning).effort === undefined ? { effort } : {}) };
  if (Object.keys(reasoning).length > 0) wire.reasoning = reasoning;
  if (request.metadata && Object.keys(request.metadata).length > 0) wire.metadata = request.metadata;
  if (request.user !== undefined) wire.user = request.user;
  wire.store ??= false;
  if (options.stream) wire.stream = true;
  else delete wire.stream;
  return notes.finish(wire);
}
