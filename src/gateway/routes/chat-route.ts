/**
 * `POST /v1/chat/completions` and `POST /v1/messages` (SPEC R-GW-1…R-GW-4, R-ST-1…R-ST-3, R-NT-2): parse the
 * dialect, resolve routing, answer slash commands in-band, run the canonical request and render the answer,
 * the stream, the notice or the error in the request's dialect. Nothing reaches a provider before the body
 * and the routing headers are valid.
 */
import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { agentSettings } from "../../config/index.js";
import { DetourError, FailoverError } from "../../core/errors.js";
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent, CanonicalUsage } from "../../ports/canonical.js";
import {
  FORWARDED_RESPONSE_HEADERS,
  type CanonicalStreamResult,
  type LaneResponse,
  type ChatRequestSource,
  type ChatRunner,
  type ProviderPin,
  type RawStreamResult,
  type RunOutcome,
} from "../../engine/index.js";
import { silentLogger } from "../../ports/events.js";
import { inlineNotice } from "../dialect.js";
import { accessLogLine } from "../lane/access-log.js";
import { anthropicBetasOf } from "../../wire/anthropic-messages/lane.js";
import { mayBeSlashCommand, withAnsweringModel } from "../../wire/shared/lane-body.js";
import { scanChatBody, usageOf, type ScannedChatBody } from "../../wire/shared/scan-chat-body.js";
import { BodyBytes } from "../../wire/shared/body-bytes.js";
import { receiveBodyBytes } from "../lane/receive-body.js";
import { accountUsage, costHeader } from "../usage-accounting.js";
import type { GatewayDialect, ParsedChatRequest, StreamContext } from "../dialect.js";
import type { GatewayContext } from "../gateway-context.js";
import { badRequest, badRouting, describeRunError, type GatewayError } from "../http-errors.js";
import { attemptCount, outcomeHeaders } from "../outcome-headers.js";
import { resolveRouting, RoutingError, type RoutingOptions } from "../routing.js";
import { answerSlashCommand, parseSlashCommand, type SlashCommand } from "../slash-commands.js";
import { SseWriter } from "../sse-writer.js";
import { droppedHeader, takeDroppedHints } from "../dropped-hints.js";
import { explainPinnedFailure, responseStatePin } from "../response-state.js";

/** `x-detour-model` of answers the gateway gives itself (slash commands). */
export const GATEWAY_MODEL = "detour";

export function sendGatewayError(reply: FastifyReply, dialect: GatewayDialect, error: GatewayError): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header("retry-after", String(error.retryAfterSeconds));
  return reply.code(error.status).type("application/json; charset=utf-8").send(dialect.renderError(error));
}

function slashAnswer(text: string): CanonicalResponse {
  return {
    id: `detour-${randomUUID()}`,
    model: GATEWAY_MODEL,
    content: [{ type: "text", text }],
    finishReason: "stop",
    usage: { inputTokens: 0, outputTokens: 0 },
  };
}

function answerAsEvents(response: CanonicalResponse): CanonicalStreamEvent[] {
  const events: CanonicalStreamEvent[] = [{ type: "message-start", id: response.id, model: response.model }];
  for (const part of response.content) {
    if (part.type === "text") events.push({ type: "text-delta", text: part.text });
  }
  events.push({ type: "finish", reason: response.finishReason, usage: response.usage });
  return events;
}

/** `provider/model` of the attempt that answered: what the answer names (R-ST-3). */
function answeringModel(outcome: RunOutcome<unknown>): string {
  return `${outcome.provider}/${outcome.model}`;
}

/** A non-streamed answer in the client's format, whichever lane made it: what the one response path sends. */
interface ClientAnswer {
  status: number;
  headers: Record<string, string>;
  /** Bytes as they go out, or the dialect's rendered object (serialised as JSON). */
  body: unknown;
  /** The answer's usage, for the spend and the cost header (R-GW-7). */
  usage: CanonicalUsage | undefined;
}

/** A committed stream in the client's format, whichever lane made it: what the one stream path writes. */
interface ClientStream<Item> {
  items: AsyncIterable<Item>;
  /** Headers known at the commit (the dropped hints of R-GW-6). */
  headers: Record<string, string>;
  includeUsage: boolean;
  /** The frames of the explicit error a failed stream ends with (R-ST-2). */
  errorFrames(error: unknown): string[];
  /** One item as one client write; a promise only when the client is behind. */
  write(writer: SseWriter, item: Item): Promise<void> | undefined;
  /** The terminal frame went out: nothing more is read. */
  finished(): boolean;
  /** The items end the stream themselves (their own terminal frame, or a thrown cut). */
  selfTerminating: boolean;
  /** The usage the stream stated, for the spend (R-GW-7); a cut stream may have none. */
  usage(): CanonicalUsage | undefined;
  malformedChunks(): number;
}

class ChatExchange {
  readonly #abort = new AbortController();
  readonly #receivedAt: number;
  readonly #createdSeconds: number;
  readonly #onClose = () => {
    // 'close' also fires after a normal end; only an unfinished response means the client went away.
    if (!this.reply.raw.writableFinished) {
      this.#abort.abort(new DOMException("The client closed the connection.", "AbortError"));
    }
  };

  constructor(
    readonly context: GatewayContext,
    readonly dialect: GatewayDialect,
    readonly request: FastifyRequest,
    readonly reply: FastifyReply,
  ) {
    this.#receivedAt = context.clock.now();
    this.#createdSeconds = Math.floor(this.#receivedAt / 1000);
    // The response socket, not the request: the request stream ends as soon as the body was read.
    reply.raw.on("close", this.#onClose);
  }

  async handle(): Promise<FastifyReply | void> {
    try {
      const raw = this.request.body;
      // The raw body parser is registered only with a lane (registerChatRoute).
      if (raw instanceof BodyBytes && this.context.passThrough) return await this.#handleLane(raw, this.context.passThrough);
      const parsed = this.dialect.parse(this.request.body);
      if (!parsed.ok) {
        return this.reply.code(400).type("application/json; charset=utf-8").send(this.dialect.renderValidationError(parsed.issues));
      }
      let routing: RoutingOptions;
      try {
        routing = resolveRouting(this.request.headers, parsed.value.model, this.context.knownAgentIds);
      } catch (error) {
        if (error instanceof RoutingError) return sendGatewayError(this.reply, this.dialect, badRouting(error));
        throw error;
      }
      const command = parseSlashCommand(parsed.value.request);
      if (command) return await this.#answerCommand(command, routing, parsed.value);
      return await this.#run(routing, parsed.value);
    } finally {
      this.reply.raw.off("close", this.#onClose);
      this.#logAccess();
    }
  }

  /** Who answered, for the access line. */
  #answered: { model: string; attempts: number } | undefined;
  /** A failed run's attempts, as its error body lists them, for the access line. */
  #failedAttempts = 0;
  /** The agent the request runs for (R-GW-3), for the spend of the answering profile (R-GW-7). */
  #agentId: string | undefined;

  #account(outcome: RunOutcome<unknown>, usage: Parameters<typeof accountUsage>[2]): number | undefined {
    return accountUsage(
      this.context,
      {
        ...(this.#agentId !== undefined ? { agentId: this.#agentId } : {}),
        provider: outcome.provider,
        model: outcome.model,
        ...(outcome.profileId !== undefined ? { profileId: outcome.profileId } : {}),
        runId: outcome.runId,
      },
      usage,
    );
  }

  #logAccess(): void {
    const { logger, clock } = this.context;
    if (logger === silentLogger || logger.isLevelEnabled?.("info") === false) return;
    const line = accessLogLine({
      method: this.request.method,
      path: this.request.routeOptions.url ?? this.request.url,
      status: this.reply.raw.statusCode,
      model: this.#answered?.model ?? null,
      attempts: this.#answered?.attempts ?? this.#failedAttempts,
      durationMs: clock.now() - this.#receivedAt,
    });
    logger.log("info", line.message, line.fields);
  }

  get #clientGone(): boolean {
    return this.#abort.signal.aborted;
  }

  #streamContext(model: string, includeUsage: boolean): StreamContext {
    return { model, createdSeconds: this.#createdSeconds, includeUsage };
  }

  async #answerCommand(command: SlashCommand, routing: RoutingOptions, parsed: ParsedChatRequest) {
    const { config, detour, clock } = this.context;
    const agent = agentSettings(config, routing.agentId);
    let text: string;
    try {
      text = await answerSlashCommand(command, {
        agentId: routing.agentId,
        ...(routing.sessionKey !== undefined ? { sessionKey: routing.sessionKey } : {}),
        sessions: detour.sessions,
        profiles: detour.profiles,
        configuredPrimary: agent.model?.primary ?? config.agents.defaults.model.primary,
        configuredFallbacks: agent.model ? (agent.model.fallbacks ?? []) : config.agents.defaults.model.fallbacks,
        now: clock.now(),
      });
    } catch (error) {
      // A bad `/model` argument is the user's typo: answer it in the chat, where it was made.
      if (!(error instanceof DetourError)) throw error;
      text = error.message;
    }
    const response = slashAnswer(text);
    const headers = { "x-detour-model": GATEWAY_MODEL, "x-detour-attempts": "0" };
    if (!parsed.stream) {
      return this.reply
        .code(200)
        .headers(headers)
        .send(this.dialect.renderResponse(response, { createdSeconds: this.#createdSeconds }));
    }
    this.reply.hijack();
    const writer = new SseWriter(this.reply.raw);
    writer.start(headers);
    const encoder = this.dialect.createStreamEncoder(this.#streamContext(GATEWAY_MODEL, parsed.includeUsage));
    for (const event of answerAsEvents(response)) await writer.write(encoder.encode(event));
    writer.end();
  }

  async #run(routing: RoutingOptions, parsed: ParsedChatRequest) {
    this.#agentId = routing.agentId;
    // Without the lane every candidate is called through the canonical model, which cannot hold this input.
    if (parsed.untranslatable)
      return sendGatewayError(this.reply, this.dialect, badRequest(parsed.untranslatable.problem, parsed.untranslatable.field));
    const pinned = this.#pin(routing, parsed);
    if (pinned === false) return this.reply;
    const options = this.#runOptions(routing, pinned, this.#withClientBetas(parsed.request));
    // Only the run itself is guarded here: once an answer exists, rendering it handles its own failures.
    let outcome: RunOutcome<CanonicalResponse> | RunOutcome<CanonicalStreamResult>;
    try {
      outcome = parsed.stream
        ? await this.context.run({ ...options, stream: true })
        : await this.context.run({ ...options, stream: false });
    } catch (error) {
      return this.#runFailed(error, pinned);
    }
    if (!parsed.stream) return this.#respond(outcome, this.#canonicalAnswer(outcome as RunOutcome<CanonicalResponse>));
    const streamed = outcome as RunOutcome<CanonicalStreamResult>;
    return this.#stream(streamed, await this.#canonicalStream(streamed, parsed.includeUsage));
  }

  #notice(outcome: RunOutcome<unknown>): string | undefined {
    return this.context.config.gateway.notices === "inline" ? outcome.notice : undefined;
  }

  /** A canonical answer in the client's format (R-ST-3: it names the model that actually answered). */
  #canonicalAnswer(outcome: RunOutcome<CanonicalResponse>): ClientAnswer {
    const response: CanonicalResponse = { ...outcome.result, model: answeringModel(outcome) };
    const notice = this.#notice(outcome);
    return {
      status: 200,
      headers: droppedHeader(outcome.result.dropped),
      body: this.dialect.renderResponse(response, {
        createdSeconds: this.#createdSeconds,
        ...(notice !== undefined ? { notice } : {}),
      }),
      usage: outcome.result.usage,
    };
  }

  /** The one way a non-streamed answer goes out, whichever lane made it. */
  #respond(outcome: RunOutcome<unknown>, answer: ClientAnswer) {
    this.#answered = { model: answeringModel(outcome), attempts: attemptCount(outcome) };
    const costUsd = answer.usage ? this.#account(outcome, answer.usage) : undefined;
    this.context.metrics.observeGatewayOverhead(this.dialect.wire.id, this.context.clock.now() - this.#receivedAt, outcome.runId);
    return this.reply
      .code(answer.status)
      .headers({ ...answer.headers, ...outcomeHeaders(outcome), ...costHeader(costUsd) })
      .send(answer.body);
  }

  /**
   * What every committed stream does first, on either lane: note who answered, time to first token and the
   * gateway's overhead; a client already gone gets the upstream stopped and its socket dropped (false).
   */
  #beginStream(outcome: RunOutcome<{ timeToFirstTokenMs: number; abort(reason?: unknown): void }>, model: string): boolean {
    const { metrics, clock } = this.context;
    this.#answered = { model, attempts: attemptCount(outcome) };
    metrics.observeTimeToFirstToken(outcome.provider, outcome.model, outcome.result.timeToFirstTokenMs);
    // The committed attempt is still running (R-ST-5): its time to first content is upstream time, not ours.
    const totalMs = clock.now() - this.#receivedAt - outcome.result.timeToFirstTokenMs;
    metrics.observeGatewayOverhead(this.dialect.wire.id, totalMs, outcome.runId);
    if (!this.#clientGone) return true;
    outcome.result.abort(this.#abort.signal.reason);
    this.#dropClient();
    return false;
  }

  /** A committed canonical stream in the client's format: each event through the dialect's stream encoder. */
  async #canonicalStream(outcome: RunOutcome<CanonicalStreamResult>, includeUsage: boolean): Promise<ClientStream<CanonicalStreamEvent>> {
    const model = answeringModel(outcome);
    const answer = outcome.result;
    // R-GW-6: the dropped hints ride on the held message-start, so the header goes out with the others.
    const hinted = await takeDroppedHints(answer.events);
    const encoder = this.dialect.createStreamEncoder(this.#streamContext(model, includeUsage));
    let usage: CanonicalUsage | undefined;
    return {
      items: hinted.events,
      headers: droppedHeader(hinted.dropped),
      includeUsage,
      errorFrames: (error) => encoder.encode({ type: "error", error }),
      write(writer, event) {
        if (event.type === "finish" && event.usage) usage = event.usage;
        // One write per event, and a promise only when the client is behind.
        return writer.writeFrames(encoder.encode(event.type === "message-start" ? { ...event, model } : event));
      },
      finished: () => encoder.finished,
      selfTerminating: false,
      usage: () => usage,
      malformedChunks: () => answer.malformedChunks(),
    };
  }

  /** A committed same-wire stream: each upstream read is one client write (SPEC R-GW-6). */
  #bytesStream(outcome: RunOutcome<RawStreamResult>): ClientStream<Buffer> {
    const answer = outcome.result;
    const scanner = answer.scanner;
    return {
      items: answer.chunks,
      headers: {},
      // A notice frame on a same-wire stream is rendered as for a client that asked for usage, as it always was.
      includeUsage: true,
      // Made only for a failure: a healthy same-wire stream never encodes a frame of its own.
      errorFrames: (error) =>
        this.dialect.createStreamEncoder(this.#streamContext(answeringModel(outcome), true)).encode({ type: "error", error }),
      write: (writer, chunk) => writer.writeBytes(chunk),
      // Read to the end: the upstream's own terminal frame is among the bytes.
      finished: () => false,
      // The scanner supplies a missing terminal frame or the commit point throws a cut: a stream that ended is whole.
      selfTerminating: true,
      // R-GW-7: the scanner kept the stream's usage (the last usage event or chunk); a cut stream may have none.
      usage: () => this.dialect.wire.usage.read(scanner.usage),
      malformedChunks: () => scanner.malformedChunks,
    };
  }

  /** The one way a committed stream goes out, whichever lane made it (SPEC R-ST-1…R-ST-3). */
  async #stream<Item>(outcome: RunOutcome<{ timeToFirstTokenMs: number; abort(reason?: unknown): void }>, stream: ClientStream<Item>) {
    const { metrics } = this.context;
    const model = answeringModel(outcome);
    if (!this.#beginStream(outcome, model)) return;
    this.reply.hijack();
    const writer = new SseWriter(this.reply.raw);
    writer.start({ ...outcomeHeaders(outcome), ...stream.headers });
    const notice = this.#notice(outcome);
    if (notice !== undefined) await writer.write(this.dialect.noticeFrames(notice, this.#streamContext(model, stream.includeUsage)));
    try {
      for await (const item of stream.items) {
        const behind = stream.write(writer, item);
        if (behind) await behind;
        // Leaving the loop returns the iterator, which stops the upstream call.
        if (stream.finished() || !writer.open) break;
      }
    } catch (error) {
      if (!this.#clientGone) {
        // R-ST-2: after the commit a failure ends the stream with an explicit error, never a clean finish.
        metrics.observePostCommitFailure(outcome.provider, outcome.model);
        await writer.write(stream.errorFrames(error));
      }
    } finally {
      metrics.observeMalformedChunks(outcome.provider, outcome.model, stream.malformedChunks());
      if (!stream.selfTerminating && !stream.finished() && writer.open && !this.#clientGone) {
        // The stream ended without a terminal frame: say so instead of letting it look complete.
        await writer.write(stream.errorFrames(new Error("The upstream stream ended unexpectedly.")));
      }
      // After the last frame went out: accounting never holds back the client's finish.
      const usage = stream.usage();
      if (usage) this.#account(outcome, usage);
      writer.end();
    }
  }

  /**
   * The same-wire lane (SPEC R-GW-6): a targeted scan instead of a full parse; the full dialect parse runs
   * only for a body the scan does not vouch for (its 400 is the canonical path's) or a possible slash command.
   */
  async #handleLane(bytes: BodyBytes, lane: ChatRunner) {
    const scan = scanChatBody(bytes);
    if (!scan.ok) {
      const error =
        scan.problem === "the request body is empty"
          ? badRequest("The request body is empty; send a JSON object.", "(body)")
          : badRequest(`The request body is not valid JSON: ${scan.problem}.`, "(body)");
      return sendGatewayError(this.reply, this.dialect, error);
    }
    const body = scan.body;
    let parsed: ParsedChatRequest | undefined;
    if (!this.dialect.wire.lane.shapeOk(body) || mayBeSlashCommand(body)) {
      const full = this.dialect.parse(JSON.parse(bytes.utf8()));
      if (!full.ok) {
        return this.reply.code(400).type("application/json; charset=utf-8").send(this.dialect.renderValidationError(full.issues));
      }
      parsed = full.value;
    }
    let routing: RoutingOptions;
    try {
      routing = resolveRouting(this.request.headers, parsed?.model ?? (body.model?.value as string), this.context.knownAgentIds);
    } catch (error) {
      if (error instanceof RoutingError) return sendGatewayError(this.reply, this.dialect, badRouting(error));
      throw error;
    }
    if (parsed) {
      const command = parseSlashCommand(parsed.request);
      if (command) return await this.#answerCommand(command, routing, parsed);
    }
    const pinned = this.#pin(routing, parsed);
    if (pinned === false) return this.reply;
    const request = this.#passThroughRequest(body, parsed);
    this.#agentId = routing.agentId;
    const options = this.#runOptions(routing, pinned, request);
    try {
      if (request.stream) {
        const outcome = await lane.stream(options);
        const answer = outcome.result;
        if (answer.lane === "same-wire") {
          const streamed = { ...outcome, result: answer.stream };
          return await this.#stream(streamed, this.#bytesStream(streamed));
        }
        const streamed = { ...outcome, result: answer.stream };
        return await this.#stream(streamed, await this.#canonicalStream(streamed, request.bytes.clientWantsUsage));
      }
      const outcome = await lane.complete(options);
      const answer = outcome.result;
      return this.#respond(
        outcome,
        answer.lane === "same-wire"
          ? this.#bytesAnswer({ ...outcome, result: answer })
          : this.#canonicalAnswer({ ...outcome, result: answer.response }),
      );
    } catch (error) {
      return this.#runFailed(error, pinned);
    }
  }

  /**
   * A request that continues server-held state runs only on the provider holding it (`undefined`: no pin
   * needed). `false`: no candidate can hold it, and the 400 saying so has been sent.
   */
  /** What both lanes hand the engine: the resolved routing, the pin (if any) and this request's abort. */
  #runOptions<Request>(routing: RoutingOptions, pinned: ProviderPin | undefined, request: Request) {
    return {
      ...(pinned ? { pinnedProvider: pinned } : {}),
      agentId: routing.agentId,
      ...(routing.sessionKey !== undefined ? { sessionKey: routing.sessionKey } : {}),
      ...(routing.model !== undefined ? { model: routing.model } : {}),
      ...(routing.fallbacks !== undefined ? { fallbacks: routing.fallbacks } : {}),
      ...(routing.source !== undefined ? { source: routing.source } : {}),
      signal: this.#abort.signal,
      request,
    };
  }

  /** The client's Anthropic beta flags travel with the canonical request: Claude on Bedrock reads them from its body. */
  #withClientBetas(request: CanonicalRequest): CanonicalRequest {
    const betas = anthropicBetasOf(this.dialect.wire.lane.clientHeaders(this.request.headers));
    return betas.length > 0 ? { ...request, anthropicBetas: betas } : request;
  }

  #pin(routing: RoutingOptions, parsed: ParsedChatRequest | undefined): ProviderPin | undefined | false {
    const field = parsed?.statefulField;
    if (field === undefined) return undefined;
    const pin = responseStatePin(this.context.config, routing, field);
    if (pin.ok) return pin.pin;
    sendGatewayError(this.reply, this.dialect, pin.error);
    return false;
  }

  #runFailed(error: unknown, pinned: ProviderPin | undefined) {
    if (this.#clientGone) return this.#dropClient();
    const described = describeRunError(error, this.context.clock.now());
    this.#failedAttempts = described.attempts?.length ?? 0;
    if (described.kind === "internal") {
      this.context.logger.log("error", "Gateway request failed internally", { error: described.message });
    }
    return sendGatewayError(this.reply, this.dialect, pinned ? explainPinnedFailure(described, pinned) : described);
  }

  #passThroughRequest(
    body: ScannedChatBody,
    parsed: ParsedChatRequest | undefined,
  ): ChatRequestSource & Required<Pick<ChatRequestSource, "bytes">> {
    const stream = parsed?.stream ?? body.stream?.value === true;
    let canonical = parsed ? this.#withClientBetas(parsed.request) : undefined;
    const untranslatable = parsed?.untranslatable;
    const dialect = this.dialect;
    const { wire } = dialect;
    const lane = wire.lane;
    const clientHeaders = lane.clientHeaders(this.request.headers);
    const withClientBetas = (request: CanonicalRequest) => this.#withClientBetas(request);
    return {
      stream,
      bytes: {
        wire,
        bodyFor: (model) => lane.bodyFor(body, model, stream),
        // R-ST-6: a non-streamed request goes upstream as a stream (its answer is assembled), so silence is caught.
        ...(stream ? {} : { streamedBodyFor: (model: string) => lane.streamedBodyFor(body, model) }),
        clientWantsUsage: lane.clientWantsUsage(body, stream),
        factsBound: () => lane.factsBound(body),
        ...(clientHeaders !== undefined ? { clientHeaders } : {}),
      },
      canonical() {
        if (untranslatable) {
          // R-GW-6: only a same-wire candidate can take this input; any other is skipped, not called.
          throw new FailoverError(`${untranslatable.problem} Only a model on the ${wire.id} API can take it.`, { reason: "incompatible" });
        }
        if (canonical) return canonical;
        const full = dialect.parse(JSON.parse(body.bytes.utf8()));
        if (!full.ok) {
          // Only a cross-wire candidate needs the canonical form; the client's body does not fit it.
          const problems = full.issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
          throw new FailoverError(`The request cannot be translated for another wire format: ${problems}`, {
            reason: "format",
            status: 400,
          });
        }
        canonical = withClientBetas(full.value.request);
        return canonical;
      },
    };
  }

  /** A same-wire answer: the upstream's bytes, only the model renamed (R-ST-3), with the headers it forwards. */
  #bytesAnswer(outcome: RunOutcome<Extract<LaneResponse, { lane: "same-wire" }>>): ClientAnswer {
    const model = answeringModel(outcome);
    const answer = outcome.result;
    let body: Buffer;
    let wireUsage: unknown;
    if (answer.assembled) {
      // Assembled from the stream (R-ST-6): it names the answering model already, and its usage is known.
      body = answer.body;
      wireUsage = answer.assembled.usage;
    } else {
      const scanned = scanChatBody(answer.body);
      wireUsage = scanned.ok ? usageOf(scanned.body) : undefined;
      // R-ST-3: the answer names the model that answered; every other byte is the provider's.
      body = (scanned.ok ? withAnsweringModel(scanned.body, model) : undefined) ?? answer.body;
    }
    const notice = this.#notice(outcome);
    if (notice !== undefined) {
      // Rare (a fallback just happened, notices inline): the one case the lane rewrites the answer.
      const json = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
      body = Buffer.from(JSON.stringify({ ...json, detour_notice: inlineNotice(notice) }));
    }
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = answer.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    headers["content-type"] ??= "application/json";
    return {
      status: answer.status,
      headers,
      body,
      usage: wireUsage !== undefined ? this.dialect.wire.usage.read(wireUsage) : undefined,
    };
  }

  #dropClient() {
    if (!this.reply.sent) this.reply.hijack();
    this.reply.raw.destroy();
  }
}

export function registerChatRoute(app: FastifyInstance, path: string, dialect: GatewayDialect, context: GatewayContext): void {
  if (!context.passThrough) {
    app.post(path, (request, reply) => new ChatExchange(context, dialect, request, reply).handle());
    return;
  }
  // The lane forwards the client's bytes (R-GW-6): the route gets the body as the chunks it arrived in
  // (BodyBytes) and reads it itself.
  void app.register(async (scope) => {
    scope.removeContentTypeParser("application/json");
    scope.addContentTypeParser("application/json", receiveBodyBytes);
    scope.post(path, (request, reply) => new ChatExchange(context, dialect, request, reply).handle());
  });
}
