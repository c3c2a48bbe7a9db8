/**
 * AWS Bedrock's runtime paths of the mock (`/model/<modelId>/invoke|invoke-with-response-stream|converse|converse-stream`):
 * Claude through InvokeModel — the Anthropic body without `model`, with `anthropic_version: "bedrock-2023-05-31"`,
 * answered with Anthropic's message, streamed as AWS event-stream `chunk` messages each carrying one Anthropic
 * event — and every model through Converse, in Converse's own wire (the answer's `output.message`, `stopReason`
 * and `usage`; a stream of messageStart, contentBlockDelta, contentBlockStop, messageStop and metadata messages),
 * read and written by the Bedrock wire format's own codecs. Every request must be SigV4-signed with one of
 * MOCK_AWS_CREDENTIALS (the signature is recomputed, as AWS does); failures answer Bedrock's `{"message"}` with
 * the exception in `x-amzn-ErrorType`, and in a stream as an exception message. Rules match InvokeModel calls by
 * `api: "anthropic"`, Converse calls by `api: "bedrock"`, and both by the access key id and the model id.
 */
import { parseAwsAuthorization, verifyAwsSignature } from "../../../providers/cloud/sigv4.js";
import {
  BEDROCK_ANTHROPIC_VERSION,
  bedrockChunkMessage,
  bedrockExceptionForStatus,
  bedrockExceptionFrame,
  binaryText,
  createConverseStreamEncoder,
  decodeConverseRequest,
  renderConverseResponse,
} from "../../../wire/bedrock/index.js";
import { awsEventMessage } from "../../../wire/shared/aws-event-stream.js";
import { describeDialectIssues } from "../../../wire/shared/validation-issues.js";
import { messageFor, type ResolvedMockError } from "../error-presets.js";
import { anthropicWire } from "./anthropic-wire.js";
import { conversationOf, replyEvents } from "./codec-wire.js";
import { canonicalReply, isRecord, type MockWire, type StreamFrames, type WireRoute } from "./mock-wire.js";

/** The test keys the mock knows (access key id → secret): sign with one of them, or be refused. */
export const MOCK_AWS_CREDENTIALS: Readonly<Record<string, string>> = Object.freeze({
  AKIAMOCKBEDROCK00001: "mock/bedrock/secret/one+0000000000000000",
  AKIAMOCKBEDROCK00002: "mock/bedrock/secret/two+0000000000000000",
});

export const MOCK_AWS_EVENT_STREAM_CONTENT_TYPE = "application/vnd.amazon.eventstream";

/** Bedrock's error names beside its message, as the `x-amzn-ErrorType` header carries them. */
function errorTypeHeader(exception: string): Record<string, string> {
  return { "x-amzn-errortype": `${exception}:http://internal.amazon.com/coral/com.amazon.bedrock/` };
}

/** Bedrock's own words for its throttle and capacity failures; other presets keep their message. */
function bedrockMessage(error: ResolvedMockError): string {
  if (error.message !== undefined) return error.message;
  const exception = bedrockExceptionForStatus(error.status);
  if (exception === "ThrottlingException") return "Too many requests, please wait before trying again.";
  if (exception === "ServiceUnavailableException") return "Bedrock is unable to process your request.";
  if (error.preset === "context-overflow") return "Input is too long for requested model.";
  return messageFor(error, "anthropic");
}

/** The access key a request was signed with: the key rules and counts go by. */
export function awsAccessKeyOf(authorization: string | undefined): string | undefined {
  return parseAwsAuthorization(authorization)?.accessKeyId;
}

/** Bedrock's refusal of a request whose signature does not check out, or undefined when it does. */
export function bedrockSignatureRefusal(request: {
  method: string;
  path: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: string;
}): { status: number; body: unknown; headers: Record<string, string> } | undefined {
  const check = verifyAwsSignature({ ...request, secretFor: (id) => MOCK_AWS_CREDENTIALS[id] });
  if (check.ok) return undefined;
  if (check.problem === "unknown access key") {
    return {
      status: 403,
      body: { message: "The security token included in the request is invalid." },
      headers: errorTypeHeader("UnrecognizedClientException"),
    };
  }
  return {
    status: 403,
    body: {
      message:
        "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.",
    },
    headers: errorTypeHeader("InvalidSignatureException"),
  };
}

/** SSE text of Anthropic events → the same events as Bedrock `chunk` messages, in binary text. */
function asChunks(sse: string): string {
  return [...sse.matchAll(/^data: (.*)$/gm)].map((match) => binaryText(bedrockChunkMessage(match[1] as string))).join("");
}

function framesAsChunks(frames: StreamFrames): StreamFrames {
  const convert = (list: string[]) => list.map(asChunks);
  return { lead: convert(frames.lead), content: convert(frames.content), finish: convert(frames.finish), done: convert(frames.done) };
}

/** A message whose payload checksum is broken (a byte before the message CRC flipped): a reader must skip it (R-ST-2). */
function damaged(message: Uint8Array): string {
  const bytes = Buffer.from(message);
  const at = bytes.length - 8;
  bytes[at] = (bytes[at] ?? 0) ^ 0xff;
  return bytes.toString("latin1");
}

const damagedChunk = () => damaged(bedrockChunkMessage('{"type":"ping"}'));

/** Bedrock's failures, the same on InvokeModel and Converse: `{"message"}` and the exception's name beside it. */
const BEDROCK_ERRORS = {
  errorBody: (error: ResolvedMockError) => ({ message: bedrockMessage(error) }),
  errorHeaders: () => ({}),
  errorTypeHeaders: (error: ResolvedMockError) => errorTypeHeader(bedrockExceptionForStatus(error.status)),
  streamErrorFrame: (error: ResolvedMockError) => bedrockExceptionFrame(error.status, bedrockMessage(error)),
  badRequestBody: (message: string) => ({ message }),
} satisfies Partial<MockWire>;

/** Claude on Bedrock's InvokeModel. */
export const bedrockAnthropicWire: MockWire = {
  ...anthropicWire,
  streamContentType: MOCK_AWS_EVENT_STREAM_CONTENT_TYPE,
  frameEncoding: "latin1",
  readRequest(body, route) {
    if (!isRecord(body)) return { ok: false, message: "Malformed input request: the body must be a JSON object." };
    if (body.model !== undefined) return { ok: false, message: "Malformed input request: #: extraneous key [model] is not permitted" };
    if (body.stream !== undefined) return { ok: false, message: "Malformed input request: #: extraneous key [stream] is not permitted" };
    if (body.anthropic_version !== BEDROCK_ANTHROPIC_VERSION) {
      return { ok: false, message: `Malformed input request: anthropic_version must be "${BEDROCK_ANTHROPIC_VERSION}"` };
    }
    const betas = body.anthropic_beta;
    if (betas !== undefined && !(Array.isArray(betas) && betas.every((beta) => typeof beta === "string"))) {
      return { ok: false, message: "Malformed input request: #/anthropic_beta: expected type: JSONArray of strings" };
    }
    const stream = route.streamFromPath === true;
    return anthropicWire.readRequest({ ...body, model: route.modelFromPath, ...(stream ? { stream: true } : {}) }, route);
  },
  streamFrames: (reply, context) => framesAsChunks(anthropicWire.streamFrames(reply, context)),
  ...BEDROCK_ERRORS,
  malformedFrame: damagedChunk,
};

/**
 * Any model on Bedrock's Converse API. The body is read by the wire format's Converse decoder (a `model` or
 * `stream` in it, or a field Converse lacks, is refused as Bedrock refuses it); the answer and the stream are the
 * canonical reply written by the format's Converse renderer and stream encoder.
 */
export const bedrockConverseWire: MockWire = {
  api: "bedrock",
  streamContentType: MOCK_AWS_EVENT_STREAM_CONTENT_TYPE,
  frameEncoding: "latin1",
  readRequest(body, route) {
    const decoded = decodeConverseRequest(body, {
      ...(route.modelFromPath !== undefined ? { model: route.modelFromPath } : {}),
      stream: route.streamFromPath === true,
    });
    if (!decoded.ok) return { ok: false, message: `Malformed input request: ${describeDialectIssues(decoded.issues)}` };
    const { model, stream, includeUsage, request } = decoded.value;
    return { ok: true, info: { model, stream, includeUsage, conversation: conversationOf(request) } };
  },
  renderJson: (reply, context) => renderConverseResponse(canonicalReply(reply, context)),
  streamFrames(reply, context): StreamFrames {
    const events = replyEvents(reply, context);
    const encoder = createConverseStreamEncoder();
    return {
      lead: events.lead.flatMap((event) => encoder.encode(event)),
      content: events.content.map((group) => group.flatMap((event) => encoder.encode(event)).join("")),
      finish: events.finish.flatMap((event) => encoder.encode(event)),
      // ConverseStream ends with its metadata message: no terminator after it.
      done: [],
    };
  },
  ...BEDROCK_ERRORS,
  malformedFrame: () => damaged(awsEventMessage("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "oops" } })),
};

const BEDROCK_MODEL_PATH = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|converse|converse-stream)$/;

/** The Bedrock route of a POST (InvokeModel for Claude, Converse for any model), or undefined for another path. */
export function routeBedrock(url: URL): { wire: MockWire; route: WireRoute } | undefined {
  const match = BEDROCK_MODEL_PATH.exec(url.pathname);
  if (!match?.[1] || !match[2]) return undefined;
  return {
    wire: match[2].startsWith("converse") ? bedrockConverseWire : bedrockAnthropicWire,
    route: { searchParams: url.searchParams, modelFromPath: decodeURIComponent(match[1]), streamFromPath: match[2].endsWith("stream") },
  };
}
