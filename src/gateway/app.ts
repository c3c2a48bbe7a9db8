/**
 * The gateway's route table (SPEC §14, R-GW-1): one fastify app per gateway. Renders only; every failover
 * decision is the engine's. Client and admin access (R-GW-5) is decided in one hook before any route runs,
 * and every error — fastify's own (bad JSON, body too large) included — is answered in the dialect of the
 * route it hit (R-GW-4).
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { lazySchemaCompilers } from "./lazy-schema-compilers.js";
import { DEFAULT_AGENT_ID, type DetourConfig } from "../config/index.js";
import { EventHub, type CanonicalRunner, type ChatRunner } from "../engine/index.js";
import type { Clock } from "../ports/clock.js";
import { silentLogger, type Logger } from "../ports/events.js";
import { systemClock } from "../ports/system-clock.js";
import { authorize, presentedToken } from "./auth.js";
import type { GatewayDialect } from "./dialect.js";
import { anthropicDialect } from "./dialect-adapters/anthropic-dialect.js";
import { openAIDialect } from "./dialect-adapters/openai-dialect.js";
import { openAIResponsesDialect } from "./dialect-adapters/openai-responses-dialect.js";
import type { GatewayContext, GatewayDetour } from "./gateway-context.js";
import { AttemptLedger } from "./attempt-ledger.js";
import { EngineGenerations } from "./engine-generations.js";
import { badRequest, badRouting, notFound, type GatewayError } from "./http-errors.js";
import { GatewayMetrics } from "./metrics.js";
import { RoutingError } from "./routing.js";
import { resolveRunModels } from "./run-models.js";
import { checkedSessions } from "./session-patch-checks.js";
import { SessionPageError } from "./status-page/session-page.js";
import { registerAdminRoutes } from "./routes/admin-routes.js";
import { registerChatRoute, sendGatewayError } from "./routes/chat-route.js";
import { registerDashboardRoutes } from "./routes/dashboard-routes.js";
import { registerModelRoutes } from "./routes/model-routes.js";
import { registerEmbeddingsRoute } from "./routes/embeddings-route.js";
import { profileStatesOf, registerInfoRoutes, seatSamplesOf } from "./routes/info-routes.js";
import { installRequestGuard } from "./request-guard.js";
import { ERROR_CODES } from "../core/errors.js";

export interface BuildGatewayAppOptions {
  /**
   * The engine (`createDetour` builds it): `run` is its canonical lane, `passThrough` its same-wire lane
   * (R-GW-6); an engine without `passThrough` serves every request on the canonical lane.
   */
  detour: GatewayDetour & { run: CanonicalRunner["run"] };
  config: DetourConfig;
  /** The host the server is bound to: admin routes without admin tokens answer only on loopback (R-GW-5). */
  host?: string;
  clock?: Clock;
  logger?: Logger;
}

const MEGABYTE = 1024 * 1024;
/** A scrape reads the status once for all its gauges; a second scrape within this long reuses it. */
const SCRAPE_STATUS_REUSE_MS = 1000;

type AccessNeed = "client" | "admin" | "observer" | "open";

function accessNeed(path: string): AccessNeed {
  // The dashboard's icon carries nothing about the gateway; a browser asks for it without a token.
  if (path === "/healthz" || path === "/favicon.ico") return "open";
  if (path.startsWith("/admin/") || path === "/admin") return "admin";
  if (path.startsWith("/v1/") || path === "/v1") return "client";
  return "observer";
}

function dialectOf(path: string): GatewayDialect {
  return path.startsWith("/v1/messages") ? anthropicDialect : openAIDialect;
}

function pathOf(request: FastifyRequest): string {
  const url = request.url;
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

function fastifyErrorToGatewayError(error: FastifyError, config: DetourConfig): GatewayError {
  if (error instanceof RoutingError) return badRouting(error);
  if (error instanceof SessionPageError) return badRequest(error.message, error.param);
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE" || error.statusCode === 413) {
    return {
      status: 413,
      kind: "request_too_large",
      message: `The request body is larger than gateway.maxBodyMb (${config.gateway.maxBodyMb} MB); send less, or raise that limit.`,
      code: ERROR_CODES.bodyTooLarge,
    };
  }
  if (error.code === "FST_ERR_CTP_EMPTY_JSON_BODY") return badRequest("The request body is empty; send a JSON object.", "(body)");
  if (error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || (error.statusCode === 400 && error instanceof SyntaxError)) {
    return badRequest(`The request body is not valid JSON: ${error.message}`, "(body)");
  }
  if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
    return {
      status: 415,
      kind: "invalid_request",
      message: "Send the request body as application/json.",
      code: ERROR_CODES.unsupportedMediaType,
    };
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, kind: "invalid_request", message: error.message, code: error.code };
  }
  return {
    status: 500,
    kind: "internal",
    message: `Detour failed internally: ${error.message}. See the gateway log for details.`,
    code: ERROR_CODES.internal,
  };
}

/** What a reload swaps in: a new engine and the config it was built from. */
export interface GatewayEngine {
  detour: BuildGatewayAppOptions["detour"];
  config: DetourConfig;
}

export interface BuiltGateway {
  app: FastifyInstance;
  /**
   * Serves requests that arrive from now on with `engine` (the swap happens before this returns its promise);
   * resolves once every request that started on the previous engine has finished, so the caller may close it.
   */
  reloadEngine(engine: GatewayEngine): Promise<void>;
}

export async function buildGatewayApp(options: BuildGatewayAppOptions): Promise<FastifyInstance> {
  return (await buildGateway(options)).app;
}

/**
 * The same-wire lane resolves models and counts attempts exactly like the canonical `run` (R-GW-3,
 * `x-detour-attempts`): both lanes answer the same request the same way.
 */
function laneWithResolvedModels(lane: ChatRunner, config: DetourConfig, ledger: AttemptLedger): ChatRunner {
  return {
    async complete(runOptions) {
      const outcome = await lane.complete(resolveRunModels(config, runOptions));
      return { ...outcome, upstreamAttempts: ledger.take(outcome.runId) };
    },
    async stream(runOptions) {
      const outcome = await lane.stream(resolveRunModels(config, runOptions));
      return { ...outcome, upstreamAttempts: ledger.take(outcome.runId) };
    },
  };
}

/** Embeddings and token counts run like chat: models resolved the same way, upstream calls counted (R-GW-3). */
function embeddingParts(detour: Partial<Pick<GatewayDetour, "embed" | "countTokens">>, config: DetourConfig, ledger: AttemptLedger) {
  const { embed, countTokens } = detour;
  return {
    ...(typeof embed === "function"
      ? {
          embed: (async (options) => {
            const outcome = await embed(resolveRunModels(config, options));
            return { ...outcome, upstreamAttempts: ledger.take(outcome.runId) };
          }) as NonNullable<GatewayDetour["embed"]>,
        }
      : {}),
    ...(typeof countTokens === "function"
      ? {
          countTokens: (async (options) => {
            const outcome = await countTokens(resolveRunModels(config, options));
            return { ...outcome, upstreamAttempts: ledger.take(outcome.runId) };
          }) as NonNullable<GatewayDetour["countTokens"]>,
        }
      : {}),
  };
}

function engineParts(detour: BuildGatewayAppOptions["detour"], config: DetourConfig, ledger: AttemptLedger, events: EventHub) {
  const passThrough = detour.passThrough;
  const run = (async (runOptions: Parameters<CanonicalRunner["run"]>[0]) => {
    // R-GW-3: a bare or unknown model is resolved (or refused) here, the same way as in the CLI and /model.
    const outcome = await detour.run(resolveRunModels(config, runOptions));
    return { ...outcome, upstreamAttempts: ledger.take(outcome.runId) };
  }) as CanonicalRunner["run"];
  // R-SO-4 / R-PO-6: `/model` and the admin PATCH store only models and pins that can work.
  const gatewayDetour: GatewayDetour = {
    sessions: checkedSessions(detour.sessions, detour.profiles, config, "model"),
    profiles: detour.profiles,
    status: detour.status.bind(detour),
    // Listeners subscribe to the gateway's relay, not to one engine: they keep their events across reloads.
    on: events.on.bind(events),
    // R-GW-7: an engine that prices answers (createDetour's does) gives them a cost and a 24-hour spend.
    ...(typeof detour.recordUsage === "function" ? { recordUsage: detour.recordUsage.bind(detour) } : {}),
    // R-OB-4: the request log reads the engine's recorded runs.
    ...(detour.traces ? { traces: detour.traces } : {}),
    ...embeddingParts(detour, config, ledger),
  };
  return {
    detour: gatewayDetour,
    run,
    config,
    knownAgentIds: [...new Set([DEFAULT_AGENT_ID, ...config.agents.list.map((agent) => agent.id)])],
    // Always present (possibly undefined) so a reload to an engine without a lane removes the old one.
    passThrough: passThrough ? laneWithResolvedModels(passThrough, config, ledger) : undefined,
  };
}

export async function buildGateway(options: BuildGatewayAppOptions): Promise<BuiltGateway> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const host = options.host ?? config.gateway.host;
  // One status read serves every gauge of a scrape: it lists each agent's profiles and sessions.
  let scrape: { at: number; status: ReturnType<GatewayContext["detour"]["status"]> } | undefined;
  const scrapeStatus = () => {
    const now = clock.now();
    if (!scrape || now - scrape.at > SCRAPE_STATUS_REUSE_MS) scrape = { at: now, status: context.detour.status() };
    return scrape.status;
  };
  const metrics = new GatewayMetrics({
    profileStates: async () => profileStatesOf(await scrapeStatus()),
    sessionCounts: async () => (await scrapeStatus()).agents.map((agent) => ({ agent: agent.agentId, count: agent.sessions.length })),
    traceWrites: () => context.detour.traces?.writes(),
    seats: async () => seatSamplesOf(await scrapeStatus()),
    config,
  });
  const ledger = new AttemptLedger();
  // The relay's own logger stays silent: each engine already logs its events once.
  const events = new EventHub(silentLogger);
  const generations = new EngineGenerations();
  const context: GatewayContext = { ...engineParts(options.detour, config, ledger, events), clock, metrics, logger };
  events.on("*", (event) => {
    metrics.observeEvent(event);
    ledger.observe(event);
  });
  let unsubscribeEngine = options.detour.on("*", (event) => events.emit(event));

  // fastify's own logger stays off: request logs would carry Authorization headers (R-OB-2).
  const app = Fastify({
    logger: false,
    bodyLimit: Math.floor(config.gateway.maxBodyMb * MEGABYTE),
    // No route has a JSON schema: ajv and fast-json-stringify load only if one ever does (lazy-schema-compilers.ts).
    schemaController: { compilersFactory: lazySchemaCompilers },
  });
  // docs/errors.md: bodies are JSON only; fastify's built-in text/plain parser would turn a text body into a
  // 400 about the schema instead of the documented 415.
  app.removeContentTypeParser("text/plain");

  app.addHook("onClose", async () => unsubscribeEngine());

  // R-GW-13: first of all hooks, so a rebinding Host or a foreign Origin reaches no route, token check or engine.
  installRequestGuard(app, {
    settings: () => context.config.gateway,
    boundHost: host,
    refuse: (request, reply, refusal) => {
      sendGatewayError(reply, dialectOf(pathOf(request)), {
        status: 403,
        kind: "permission",
        message: refusal.message,
        code: refusal.code,
      });
    },
  });

  // One callback-style hook (no promise per request): count the request in its engine generation, then
  // decide access.
  app.addHook("onRequest", (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const leave = generations.enter();
    reply.raw.once("close", leave);
    const refused = refuseAccess(request, reply);
    if (refused === undefined) done();
  });

  /** R-GW-5: undefined when the request may go on; otherwise the error reply already sent. */
  function refuseAccess(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
    // Read per request: a reload may change the tokens (gateway.auth is not a restart-only setting).
    const authSettings = context.config.gateway.auth;
    const path = pathOf(request);
    const need = accessNeed(path);
    if (need === "open") return undefined;
    const token = presentedToken(request.headers);
    // Status, metrics and the dashboard show profile ids and usage: with client tokens set they need a client
    // or admin token. Admin tokens alone guard the admin routes only, so a person can still open the dashboard
    // (and type the admin token into it for the reset buttons).
    const clientTokens = authSettings.tokens ?? [];
    const decision =
      need === "observer"
        ? authorize(
            "client",
            { tokens: clientTokens.length > 0 ? [...clientTokens, ...(authSettings.adminTokens ?? [])] : [] },
            host,
            token,
          )
        : authorize(need, authSettings, host, token);
    if (decision.allowed) return undefined;
    const kind = decision.status === 401 ? "authentication" : "not_found";
    if (decision.status === 401) reply.header("www-authenticate", 'Bearer realm="detour"');
    return sendGatewayError(reply, dialectOf(path), {
      status: decision.status,
      kind,
      message: decision.message,
      code: ERROR_CODES.unauthorized,
    });
  }

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const described = fastifyErrorToGatewayError(error, config);
    if (described.kind === "internal") logger.log("error", "Gateway route failed", { path: pathOf(request), error: error.message });
    return sendGatewayError(reply, dialectOf(pathOf(request)), described);
  });

  app.setNotFoundHandler((request, reply) =>
    sendGatewayError(
      reply,
      dialectOf(pathOf(request)),
      notFound(
        `No route ${request.method} ${pathOf(request)}. The gateway serves POST /v1/chat/completions, POST /v1/responses, POST /v1/messages, POST /v1/messages/count_tokens, POST /v1/embeddings, GET /v1/models and GET /v1/models/:id.`,
      ),
    ),
  );

  registerChatRoute(app, "/v1/chat/completions", openAIDialect, context);
  registerChatRoute(app, "/v1/messages", anthropicDialect, context);
  registerChatRoute(app, "/v1/responses", openAIResponsesDialect, context);
  registerInfoRoutes(app, context);
  registerModelRoutes(app, context);
  registerEmbeddingsRoute(app, context);
  registerDashboardRoutes(app, context);
  registerAdminRoutes(app, context);
  await app.ready();

  async function reloadEngine(engine: GatewayEngine): Promise<void> {
    const parts = engineParts(engine.detour, engine.config, ledger, events);
    const unsubscribeOld = unsubscribeEngine;
    // Subscribe before the swap so no event of a request on the new engine is missed; the old engine stays
    // subscribed until its requests are done, so their attempts and outcomes still reach metrics and the ledger.
    unsubscribeEngine = engine.detour.on("*", (event) => events.emit(event));
    context.detour = parts.detour;
    context.run = parts.run;
    context.config = parts.config;
    context.knownAgentIds = parts.knownAgentIds;
    context.passThrough = parts.passThrough;
    metrics.useConfig(engine.config);
    const { drained } = generations.advance();
    await drained;
    unsubscribeOld();
  }

  return { app, reloadEngine };
}
