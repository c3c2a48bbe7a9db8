/**
 * From a scanned request body to what the same-wire lane needs (SPEC R-GW-6), the part the chat formats
 * share: the shape check over `model`, `stream` and the message roles (each format names its roles), the
 * fit's bound from the scan, the bytes for one candidate with only `model` replaced (and, for OpenAI streams,
 * `stream_options.include_usage` added), the answer renamed, and the last message for slash commands.
 */
import { boundOfBody, type RequestFactsBound } from "../../core/fit.js";
import type { UpstreamBody } from "./body-bytes.js";
import { lastMessageOf, streamOptionsOf, type ScannedChatBody } from "./scan-chat-body.js";

/**
 * True when the body has the shape a chat format requires at its top level (a string `model`, a boolean
 * `stream` if any, messages whose roles are all in `roles`, and `max_tokens` where the format requires it);
 * anything else goes through the full decode, so a request the canonical path would reject with a 400 is
 * rejected the same way, before any call.
 */
export function chatShapeOk(body: ScannedChatBody, roles: ReadonlySet<string>, requiresMaxTokens: boolean): boolean {
  // An escaped top-level key may be `model` or `max_tokens` in disguise: the full parse reads it.
  if (body.escapedKey) return false;
  if (typeof body.model?.value !== "string") return false;
  if (body.stream !== undefined && typeof body.stream.value !== "boolean") return false;
  const messages = body.messages;
  if (!messages || messages.count === 0) return false;
  if (!messages.roles.every((role) => typeof role === "string" && roles.has(role))) return false;
  if (requiresMaxTokens && typeof body.maxTokens?.value !== "number") return false;
  return true;
}

/**
 * The pre-call fit's bound from the scan alone (R-FB-8): the body's size and counts, and `maxTokens` as the
 * format's decoder reads it. A body with an escaped top-level key gets no input bound: a known window then
 * asks for the exact facts. `image_url` (OpenAI), `input_image` (Responses) and `"type":"image"` (Anthropic)
 * all contain "image"; a false hit only costs the exact facts.
 */
export function chatFactsBound(body: ScannedChatBody, maxTokens: unknown): RequestFactsBound {
  const mayCarryImages = body.bytes.includes("image");
  if (body.escapedKey) return { modalities: mayCarryImages ? ["image"] : [] };
  return boundOfBody({
    byteLength: body.bytes.length,
    messages: body.messages?.count ?? 0,
    tools: body.tools?.count ?? 0,
    ...(typeof maxTokens === "number" ? { maxOutputTokens: maxTokens } : {}),
    mayCarryImages,
  });
}

/** The bound of a body whose turns the scan does not see (Responses `input`): only whether it may carry images. */
export function modalitiesOnlyBound(body: ScannedChatBody): RequestFactsBound {
  return { modalities: body.bytes.includes("image") ? ["image"] : [] };
}

/** The last message might be a slash command (R-GW-3): only then is the body parsed in full. */
export function mayBeSlashCommand(body: ScannedChatBody): boolean {
  const last = body.messages?.last;
  if (!last) return false;
  // Fast reject: a command is short, and its text starts with '/'.
  if (body.bytes.indexOf(0x2f, last.start) === -1) return false;
  const message = lastMessageOf(body) as { role?: unknown; content?: unknown } | undefined;
  if (message?.role !== "user") return false;
  const content = message.content;
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content
            .map((part: { type?: unknown; text?: unknown }) => (part?.type === "text" && typeof part.text === "string" ? part.text : ""))
            .join("")
        : "";
  return text.trimStart().startsWith("/");
}

/** The client set `stream_options.include_usage: true` itself (OpenAI chat). */
export function clientWantsUsage(body: ScannedChatBody): boolean {
  const options = streamOptionsOf(body) as { include_usage?: unknown } | undefined;
  return typeof options === "object" && options !== null && options.include_usage === true;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * The client's bytes for one candidate: `model` replaced; with `ensureUsage`, `stream_options.include_usage`
 * set (the lane needs the usage of every stream, R-ST-3); with `forceStream`, `stream: true` (a non-streamed
 * request is streamed upstream so silence is caught in seconds, R-ST-6). Everything else is byte for byte as sent.
 */
export function upstreamBodyFor(body: ScannedChatBody, model: string, ensureUsage: boolean, forceStream = false): UpstreamBody {
  const edits: Edit[] = [];
  const insertAt = body.objectStart + 1;
  const modelJson = JSON.stringify(model);
  if (body.model) edits.push({ start: body.model.start, end: body.model.end, text: modelJson });
  else edits.push({ start: insertAt, end: insertAt, text: `"model":${modelJson},` });
  if (forceStream && body.stream?.value !== true) {
    if (body.stream) edits.push({ start: body.stream.start, end: body.stream.end, text: "true" });
    else edits.push({ start: insertAt, end: insertAt, text: '"stream":true,' });
  }
  if (ensureUsage) {
    if (body.streamOptions) {
      const options = streamOptionsOf(body);
      if (typeof options !== "object" || options === null || Array.isArray(options)) {
        edits.push({ start: body.streamOptions.start, end: body.streamOptions.end, text: '{"include_usage":true}' });
      } else if ((options as { include_usage?: unknown }).include_usage !== true) {
        edits.push({
          start: body.streamOptions.start,
          end: body.streamOptions.end,
          text: JSON.stringify({ ...options, include_usage: true }),
        });
      }
    } else {
      edits.push({ start: insertAt, end: insertAt, text: '"stream_options":{"include_usage":true},' });
    }
  }
  edits.sort((a, b) => a.start - b.start);
  const parts: Buffer[] = [];
  let from = 0;
  for (const edit of edits) {
    parts.push(...body.bytes.views(from, edit.start), Buffer.from(edit.text));
    from = edit.end;
  }
  parts.push(...body.bytes.views(from));
  return joinedOrViews(parts);
}

/** From this size on the upstream body is sent as views of the client's bytes instead of one new copy. */
export const VIEWS_FROM_BYTES = 64 * 1024;

/**
 * A small body as one Buffer (undici writes it in one go); a large one as views of the client's bytes (the
 * chunks it arrived in, body-bytes.ts), so a 1 MB body does not get a second 1 MB copy per request — V8 counts
 * every new backing store towards its next full GC. Runs of small parts (the edits, what lies between
 * them, the ends of chunks) are joined, so there is one joined head and then about one view per chunk.
 */
function joinedOrViews(parts: readonly Buffer[]): UpstreamBody {
  let byteLength = 0;
  for (const part of parts) byteLength += part.length;
  if (byteLength < VIEWS_FROM_BYTES) return Buffer.concat(parts as Buffer[], byteLength);
  const chunks: Buffer[] = [];
  let run: Buffer[] = [];
  const flush = () => {
    if (run.length > 0) chunks.push(run.length === 1 ? (run[0] as Buffer) : Buffer.concat(run));
    run = [];
  };
  for (const part of parts) {
    if (part.length === 0) continue;
    if (part.length >= VIEW_PART_BYTES) {
      flush();
      chunks.push(part);
    } else {
      run.push(part);
    }
  }
  flush();
  return { chunks, byteLength };
}

/** A part at least this long is sent as a view; shorter ones are copied into their neighbours' run. */
const VIEW_PART_BYTES = 16 * 1024;

/** A same-wire answer's bytes with the top-level `model` naming the model that answered (R-ST-3). */
export function withAnsweringModel(scanned: ScannedChatBody | undefined, shownModel: string): Buffer | undefined {
  if (!scanned?.model) return undefined;
  const { bytes, model } = scanned;
  return Buffer.concat([...bytes.views(0, model.start), Buffer.from(JSON.stringify(shownModel)), ...bytes.views(model.end)]);
}
