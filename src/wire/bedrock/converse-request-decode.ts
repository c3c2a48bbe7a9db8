/**
 * A Converse request body → canonical request: the server side of Converse, which the mock provider answers
 * with (the gateway speaks no Bedrock to its clients). The model and the streaming operation are in the URL,
 * so the caller passes them. Tool results travel in user turns: they come back as a `tool` message before
 * the rest of that turn, as the encoder merged them; a `cachePoint` marks the block before it.
 *
 * It stays beside the WireFormat instead of being its `request.decode`: a decoding format must carry JSON
 * mode and reasoning both ways, and Converse refuses both for the non-Claude models it serves (R-GW-6).
 */
import { z } from "zod";
import type {
  CanonicalCacheMark,
  CanonicalContentPart,
  CanonicalImage,
  CanonicalMessage,
  CanonicalRequest,
  CanonicalSystemPart,
  CanonicalText,
  CanonicalTool,
  CanonicalToolChoice,
} from "../../ports/canonical.js";
import { toolArgumentsText } from "../shared/tool-arguments.js";
import { toDialectIssues } from "../shared/validation-issues.js";
import type { ClientRequestDecode, RequestRoute } from "../wire-format.js";

const cachePointBlock = z.strictObject({ cachePoint: z.strictObject({ type: z.literal("default") }) });
const textBlock = z.strictObject({ text: z.string() });
const imageBlock = z.strictObject({
  image: z.strictObject({ format: z.enum(["png", "jpeg", "gif", "webp"]), source: z.strictObject({ bytes: z.string() }) }),
});
const toolUseBlock = z.strictObject({
  toolUse: z.strictObject({ toolUseId: z.string().min(1), name: z.string().min(1), input: z.unknown() }),
});
const toolResultBlock = z.strictObject({
  toolResult: z.strictObject({
    toolUseId: z.string().min(1),
    content: z.array(z.union([textBlock, imageBlock, z.strictObject({ json: z.unknown() })])),
    status: z.enum(["success", "error"]).optional(),
  }),
});
const reasoningBlock = z.strictObject({
  reasoningContent: z.union([
    z.strictObject({ reasoningText: z.strictObject({ text: z.string(), signature: z.string().optional() }) }),
    z.strictObject({ redactedContent: z.string() }),
  ]),
});
const contentBlock = z.union([textBlock, cachePointBlock, imageBlock, toolUseBlock, toolResultBlock, reasoningBlock]);
const toolSpecBlock = z.strictObject({
  toolSpec: z.strictObject({
    name: z.string().min(1),
    description: z.string().optional(),
    inputSchema: z.strictObject({ json: z.record(z.string(), z.unknown()) }),
  }),
});
const toolChoiceSchema = z.union([
  z.strictObject({ auto: z.strictObject({}) }),
  z.strictObject({ any: z.strictObject({}) }),
  z.strictObject({ tool: z.strictObject({ name: z.string().min(1) }) }),
]);

/** The fields Converse takes; the ones the canonical request has no place for are accepted and not read. */
const converseRequestSchema = z.strictObject({
  messages: z.array(z.strictObject({ role: z.enum(["user", "assistant"]), content: z.array(contentBlock).min(1) })).min(1),
  system: z.array(z.union([textBlock, cachePointBlock])).optional(),
  inferenceConfig: z
    .strictObject({
      maxTokens: z.number().int().positive().optional(),
      temperature: z.number().min(0).max(1).optional(),
      topP: z.number().min(0).max(1).optional(),
      stopSequences: z.array(z.string()).max(4).optional(),
    })
    .optional(),
  toolConfig: z
    .strictObject({ tools: z.array(z.union([toolSpecBlock, cachePointBlock])).min(1), toolChoice: toolChoiceSchema.optional() })
    .optional(),
  additionalModelRequestFields: z.record(z.string(), z.unknown()).optional(),
  additionalModelResponseFieldPaths: z.array(z.string()).optional(),
  guardrailConfig: z.record(z.string(), z.unknown()).optional(),
  promptVariables: z.record(z.string(), z.unknown()).optional(),
  requestMetadata: z.record(z.string(), z.string()).optional(),
  performanceConfig: z.record(z.string(), z.unknown()).optional(),
});

type ConverseBody = z.infer<typeof converseRequestSchema>;
type ContentBlock = z.infer<typeof contentBlock>;

const CACHE_MARK: CanonicalCacheMark = { type: "ephemeral" };

function image(block: z.infer<typeof imageBlock>): CanonicalImage {
  return { type: "image", source: { kind: "base64", mediaType: `image/${block.image.format}`, data: block.image.source.bytes } };
}

function toolResult(block: z.infer<typeof toolResultBlock>): CanonicalContentPart {
  const result = block.toolResult;
  const parts = result.content.map((inner): CanonicalText | CanonicalImage =>
    "image" in inner ? image(inner) : { type: "text", text: "text" in inner ? inner.text : JSON.stringify(inner.json) },
  );
  const text = parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  return {
    type: "tool-result",
    toolCallId: result.toolUseId,
    content: text,
    ...(parts.some((part) => part.type === "image") ? { parts } : {}),
    ...(result.status === "error" ? { isError: true } : {}),
  };
}

/** One turn's blocks: tool results apart from the rest, each cache point set on the block before it. */
function readTurn(blocks: readonly ContentBlock[]): { content: CanonicalContentPart[]; results: CanonicalContentPart[] } {
  const content: CanonicalContentPart[] = [];
  const results: CanonicalContentPart[] = [];
  let last: CanonicalContentPart | undefined;
  for (const block of blocks) {
    if ("cachePoint" in block) {
      if (last && last.type !== "thinking") last.cache = CACHE_MARK;
      continue;
    }
    let part: CanonicalContentPart;
    if ("text" in block) part = { type: "text", text: block.text };
    else if ("image" in block) part = image(block);
    else if ("toolUse" in block) {
      const use = block.toolUse;
      part = { type: "tool-call", id: use.toolUseId, name: use.name, arguments: toolArgumentsText(use.input ?? {}) };
    } else if ("toolResult" in block) part = toolResult(block);
    else {
      const reasoning = block.reasoningContent;
      part =
        "redactedContent" in reasoning
          ? { type: "thinking", text: "", redactedData: reasoning.redactedContent }
          : {
              type: "thinking",
              text: reasoning.reasoningText.text,
              ...(reasoning.reasoningText.signature !== undefined ? { signature: reasoning.reasoningText.signature } : {}),
            };
    }
    (part.type === "tool-result" ? results : content).push(part);
    last = part;
  }
  return { content, results };
}

function readMessages(body: ConverseBody): CanonicalMessage[] {
  const messages: CanonicalMessage[] = [];
  for (const turn of body.messages) {
    const { content, results } = readTurn(turn.content);
    if (results.length > 0) messages.push({ role: "tool", content: results });
    if (content.length > 0) messages.push({ role: turn.role, content });
  }
  return messages;
}

function readSystem(body: ConverseBody): CanonicalSystemPart[] {
  const parts: CanonicalSystemPart[] = [];
  for (const block of body.system ?? []) {
    const last = parts.at(-1);
    if ("cachePoint" in block) {
      if (last) last.cache = CACHE_MARK;
    } else parts.push({ role: "system", text: block.text });
  }
  return parts;
}

function readTools(config: ConverseBody["toolConfig"]): CanonicalTool[] {
  const tools: CanonicalTool[] = [];
  for (const entry of config?.tools ?? []) {
    const last = tools.at(-1);
    if ("cachePoint" in entry) {
      if (last) last.cache = CACHE_MARK;
      continue;
    }
    const spec = entry.toolSpec;
    tools.push({
      name: spec.name,
      ...(spec.description !== undefined ? { description: spec.description } : {}),
      parameters: spec.inputSchema.json,
    });
  }
  return tools;
}

function readToolChoice(choice: z.infer<typeof toolChoiceSchema> | undefined): CanonicalToolChoice | undefined {
  if (!choice) return undefined;
  if ("auto" in choice) return "auto";
  if ("any" in choice) return "required";
  return { name: choice.tool.name };
}

export function decodeConverseRequest(raw: unknown, route?: RequestRoute): ClientRequestDecode {
  if (!route?.model) return { ok: false, issues: [{ path: "(url)", message: "The model id is missing from the request path." }] };
  const parsed = converseRequestSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, issues: toDialectIssues(parsed.error.issues) };
  const body = parsed.data;
  const request: CanonicalRequest = { messages: readMessages(body) };
  const systemParts = readSystem(body);
  if (systemParts.length > 0) {
    request.systemParts = systemParts;
    request.system = systemParts.map((part) => part.text).join("\n");
  }
  const tools = readTools(body.toolConfig);
  if (tools.length > 0) request.tools = tools;
  const toolChoice = readToolChoice(body.toolConfig?.toolChoice);
  if (toolChoice !== undefined) request.toolChoice = toolChoice;
  const inference = body.inferenceConfig;
  if (inference?.maxTokens !== undefined) request.maxTokens = inference.maxTokens;
  if (inference?.temperature !== undefined) request.temperature = inference.temperature;
  if (inference?.topP !== undefined) request.topP = inference.topP;
  if (inference?.stopSequences && inference.stopSequences.length > 0) request.stop = inference.stopSequences;
  const topK = body.additionalModelRequestFields?.top_k;
  if (typeof topK === "number") request.topK = topK;
  // Every ConverseStream answer ends with its metadata event, usage included.
  return { ok: true, value: { request, model: route.model, stream: route.stream === true, includeUsage: true } };
}
