/**
 * A client's `generateContent` request → canonical request: the server side of the format (the mock
 * provider answers with it). The model and the streaming method are in the URL, so the caller passes them.
 * Gemini names tool results by the tool's name: each result is paired with the latest call of that name.
 */
import type {
  CanonicalContentPart,
  CanonicalMessage,
  CanonicalReasoning,
  CanonicalRequest,
  CanonicalResponseFormat,
  CanonicalToolChoice,
} from "../../ports/canonical.js";
import { unmappedFields } from "../shared/encoding.js";
import { samplingFromWire } from "../shared/sampling-names.js";
import { toolArgumentsText } from "../shared/tool-arguments.js";
import { toDialectIssues, type DialectParseResult } from "../shared/validation-issues.js";
import { GOOGLE_SAMPLING_NAMES } from "./schemas.js";
import { googleClientRequestSchema, type GoogleClientPart, type GoogleClientRequest } from "./request-schema.js";

export type GoogleRequestParse = DialectParseResult<{ request: CanonicalRequest }>;

const MAPPED_FIELDS: ReadonlySet<string> = new Set(["contents", "systemInstruction", "tools", "toolConfig", "generationConfig"]);

function textOfParts(parts: readonly GoogleClientPart[]): string {
  return parts.flatMap((part) => (part.text !== undefined && part.thought !== true ? [part.text] : [])).join("\n");
}

/** Reads the parts of one turn; `pending` holds the calls not yet answered, by tool name. */
function readParts(
  parts: readonly GoogleClientPart[],
  pending: Map<string, string[]>,
  nextCallId: () => string,
): { content: CanonicalContentPart[]; results: CanonicalContentPart[] } {
  const content: CanonicalContentPart[] = [];
  const results: CanonicalContentPart[] = [];
  for (const part of parts) {
    if (part.functionCall) {
      const id = part.functionCall.id ?? nextCallId();
      pending.set(part.functionCall.name, [...(pending.get(part.functionCall.name) ?? []), id]);
      content.push({ type: "tool-call", id, name: part.functionCall.name, arguments: toolArgumentsText(part.functionCall.args) });
    } else if (part.functionResponse) {
      const waiting = pending.get(part.functionResponse.name) ?? [];
      const id = part.functionResponse.id ?? waiting.shift() ?? nextCallId();
      const response = part.functionResponse.response ?? {};
      const isError = "error" in response && !("output" in response);
      const value = isError ? response.error : "output" in response ? response.output : response;
      results.push({
        type: "tool-result",
        toolCallId: id,
        content: typeof value === "string" ? value : JSON.stringify(value ?? {}),
        ...(isError ? { isError } : {}),
      });
    } else if (part.inlineData) {
      content.push({ type: "image", source: { kind: "base64", mediaType: part.inlineData.mimeType, data: part.inlineData.data } });
    } else if (part.fileData) {
      content.push({ type: "image", source: { kind: "url", url: part.fileData.fileUri } });
    } else if (part.thought === true) {
      content.push({
        type: "thinking",
        text: part.text ?? "",
        ...(part.thoughtSignature !== undefined ? { signature: part.thoughtSignature } : {}),
      });
    } else if (part.text !== undefined && part.text !== "") {
      content.push({ type: "text", text: part.text });
    }
  }
  return { content, results };
}

function readMessages(body: GoogleClientRequest): CanonicalMessage[] {
  const pending = new Map<string, string[]>();
  let calls = 0;
  const nextCallId = () => `call_${++calls}`;
  const messages: CanonicalMessage[] = [];
  for (const turn of body.contents) {
    const { content, results } = readParts(turn.parts, pending, nextCallId);
    if (results.length > 0) messages.push({ role: "tool", content: results });
    if (content.length > 0) messages.push({ role: turn.role === "model" ? "assistant" : "user", content });
  }
  return messages;
}

function readToolChoice(config: GoogleClientRequest["toolConfig"]): CanonicalToolChoice | undefined {
  const calling = config?.functionCallingConfig;
  if (!calling?.mode) return undefined;
  if (calling.mode === "NONE") return "none";
  if (calling.mode === "ANY") {
    const only = calling.allowedFunctionNames;
    return only?.length === 1 && only[0] !== undefined ? { name: only[0] } : "required";
  }
  return "auto";
}

function readResponseFormat(config: GoogleClientRequest["generationConfig"]): CanonicalResponseFormat | undefined {
  if (config?.responseMimeType !== "application/json") return undefined;
  const schema = config.responseJsonSchema ?? config.responseSchema;
  return schema ? { type: "json-schema", name: "response", schema } : { type: "json" };
}

function readReasoning(config: GoogleClientRequest["generationConfig"]): CanonicalReasoning | undefined {
  const thinking = config?.thinkingConfig;
  if (!thinking) return undefined;
  if (thinking.thinkingBudget === 0) return { enabled: false };
  if (thinking.thinkingBudget !== undefined && thinking.thinkingBudget > 0) {
    return { enabled: true, budgetTokens: thinking.thinkingBudget };
  }
  return thinking.includeThoughts === true ? { enabled: true } : undefined;
}

export function parseGoogleRequest(raw: unknown): GoogleRequestParse {
  const parsed = googleClientRequestSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, issues: toDialectIssues(parsed.error.issues) };
  const body = parsed.data;
  const request: CanonicalRequest = { messages: readMessages(body) };
  const system = textOfParts(body.systemInstruction?.parts ?? []);
  if (system !== "") request.system = system;
  const tools = (body.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []);
  if (tools.length > 0) {
    request.tools = tools.map((tool) => ({
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      parameters: tool.parametersJsonSchema ?? tool.parameters ?? { type: "object", properties: {} },
    }));
  }
  const toolChoice = readToolChoice(body.toolConfig);
  if (toolChoice !== undefined) request.toolChoice = toolChoice;
  const config = body.generationConfig;
  samplingFromWire(config, GOOGLE_SAMPLING_NAMES, request);
  if (config?.candidateCount !== undefined) request.choiceCount = config.candidateCount;
  const responseFormat = readResponseFormat(config);
  if (responseFormat) request.responseFormat = responseFormat;
  const reasoning = readReasoning(config);
  if (reasoning) request.reasoning = reasoning;
  const unmapped = unmappedFields(body, MAPPED_FIELDS);
  if (unmapped) request.providerOptions = { "google-generative-ai": unmapped };
  return { ok: true, request };
}
