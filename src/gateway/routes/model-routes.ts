/**
 * `GET /v1/models/:id` (either dialect: Anthropic's shape when the client sends `anthropic-version`) and
 * `POST /v1/messages/count_tokens` (Anthropic's shape). A model id may contain `/` (`openai/gpt-4o`), so the
 * id is the rest of the path. count_tokens is forwarded through the runner to the chain's Anthropic Messages
 * candidates (credentials swapped, profiles rotated on failure) and answers with the provider's exact count;
 * only when none of them can answer does it fall back to the documented estimate of R-FB-8
 * (src/core/fit.ts), flagged by `x-detour-estimate: true`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { FailoverError, FallbackSummaryError } from "../../core/errors.js";
import type { FailoverReason } from "../../core/reasons.js";
import { requestFacts } from "../../engine/index.js";
import type { GatewayDialect } from "../dialect.js";
import { anthropicDialect } from "../dialect-adapters/anthropic-dialect.js";
import { openAIDialect } from "../dialect-adapters/openai-dialect.js";
import type { GatewayContext } from "../gateway-context.js";
import { sendGatewayError } from "./chat-route.js";
import { badRouting, describeRunError, notFound } from "../http-errors.js";
import { outcomeHeaders } from "../outcome-headers.js";
import { resolveRouting, RoutingError } from "../routing.js";
import { listedModels } from "./info-routes.js";
import { sendUpstreamAnswer } from "./upstream-answer.js";

export const ESTIMATE_HEADER = "x-detour-estimate";

function speaksAnthropic(request: FastifyRequest): boolean {
  return request.headers["anthropic-version"] !== undefined;
}

function modelIdOf(request: FastifyRequest): string {
  const raw = (request.params as Record<string, string | undefined>)["*"] ?? "";
  try {
    // Clients encode the `/` of `provider/model` (%2F); the router leaves that encoded.
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** A provider's own verdict on the request (400, context overflow): not something an estimate should paper over. */
const REQUEST_REJECTIONS: ReadonlySet<FailoverReason> = new Set(["format", "context_overflow"]);

function rejectedByProvider(error: unknown): boolean {
  if (error instanceof FailoverError) return REQUEST_REJECTIONS.has(error.reason);
  if (error instanceof FallbackSummaryError)
    return error.attempts.some((attempt) => attempt.reason !== undefined && REQUEST_REJECTIONS.has(attempt.reason));
  return false;
}

function anthropicClientHeaders(request: FastifyRequest): { "anthropic-version"?: string; "anthropic-beta"?: string } {
  const version = request.headers["anthropic-version"];
  const beta = request.headers["anthropic-beta"];
  return {
    ...(typeof version === "string" ? { "anthropic-version": version } : {}),
    ...(typeof beta === "string" ? { "anthropic-beta": beta } : {}),
  };
}

export function registerModelRoutes(app: FastifyInstance, context: GatewayContext): void {
  app.get("/v1/models/*", async (request, reply) => {
    const id = modelIdOf(request);
    const dialect: GatewayDialect = speaksAnthropic(request) ? anthropicDialect : openAIDialect;
    const model = listedModels(context).find((listed) => listed.id === id);
    if (!model) {
      const message = `The model ${JSON.stringify(id)} is not configured here. GET /v1/models lists the models this gateway serves.`;
      return sendGatewayError(reply, dialect, notFound(message, "model"));
    }
    if (dialect === anthropicDialect) {
      return { type: "model", id: model.id, display_name: model.id, created_at: new Date(0).toISOString() };
    }
    return { id: model.id, object: "model", created: 0, owned_by: model.ownedBy };
  });

  app.post("/v1/messages/count_tokens", async (request, reply) => {
    const body = request.body;
    // count_tokens takes a Messages body without `max_tokens`; the parser wants one, and it does not count.
    const parsed = anthropicDialect.parse(
      body !== null && typeof body === "object" && !Array.isArray(body) ? { max_tokens: 1, ...(body as Record<string, unknown>) } : body,
    );
    if (!parsed.ok)
      return reply.code(400).type("application/json; charset=utf-8").send(anthropicDialect.renderValidationError(parsed.issues));
    const estimate = () => reply.header(ESTIMATE_HEADER, "true").send({ input_tokens: requestFacts(parsed.value.request).inputTokens });
    const countTokens = context.detour.countTokens;
    if (!countTokens) return estimate();
    let routing;
    try {
      routing = resolveRouting(request.headers, parsed.value.model, context.knownAgentIds);
    } catch (error) {
      if (error instanceof RoutingError) return sendGatewayError(reply, anthropicDialect, badRouting(error));
      throw error;
    }
    try {
      const outcome = await countTokens({
        agentId: routing.agentId,
        ...(routing.model !== undefined ? { model: routing.model } : {}),
        ...(routing.fallbacks !== undefined ? { fallbacks: routing.fallbacks } : {}),
        body: body as Record<string, unknown>,
        clientHeaders: anthropicClientHeaders(request),
      });
      return sendUpstreamAnswer(reply, outcome.result, outcomeHeaders(outcome));
    } catch (error) {
      // The provider's 400 (a malformed body, an unknown model) is the client's to fix, not ours to estimate.
      if (rejectedByProvider(error)) {
        return sendGatewayError(reply, anthropicDialect, describeRunError(error, context.clock.now()));
      }
      context.logger.log("debug", "count_tokens: no Anthropic candidate answered; estimating", {
        error: error instanceof Error ? error.message : String(error),
      });
      return estimate();
    }
  });
}
