/**
 * `POST /v1/embeddings` (OpenAI dialect): validated here, run by the engine's embeddings runner (profile
 * rotation and cooldowns like chat; fallbacks only within the model's `embeddingSpace`), answered with the
 * provider's OpenAI-shaped bytes plus the `x-detour-*` headers and the cost (R-GW-7).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { openAiEmbeddingsRequestSchema } from "../../wire/openai-embeddings/schemas.js";
import { toDialectIssues } from "../../wire/shared/validation-issues.js";
import { openAIDialect } from "../dialect-adapters/openai-dialect.js";
import { droppedHeader } from "../dropped-hints.js";
import type { GatewayContext } from "../gateway-context.js";
import { badRequest, badRouting, describeRunError, notFound } from "../http-errors.js";
import { outcomeHeaders } from "../outcome-headers.js";
import { resolveRouting, RoutingError } from "../routing.js";
import { accountUsage, costHeader } from "../usage-accounting.js";
import { sendGatewayError } from "./chat-route.js";
import { sendUpstreamAnswer } from "./upstream-answer.js";

/** The client's signal: a closed connection aborts the upstream call (R-EC-7). */
function clientSignal(reply: FastifyReply): { signal: AbortSignal; done(): void } {
  const abort = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) abort.abort(new DOMException("The client closed the connection.", "AbortError"));
  };
  reply.raw.on("close", onClose);
  return { signal: abort.signal, done: () => reply.raw.off("close", onClose) };
}

async function handleEmbeddings(context: GatewayContext, request: FastifyRequest, reply: FastifyReply) {
  const parsed = openAiEmbeddingsRequestSchema.safeParse(request.body);
  if (!parsed.success) {
    return reply
      .code(400)
      .type("application/json; charset=utf-8")
      .send(openAIDialect.renderValidationError(toDialectIssues(parsed.error.issues)));
  }
  const embed = context.detour.embed;
  if (!embed) {
    return sendGatewayError(
      reply,
      openAIDialect,
      notFound("This gateway's engine does not serve embeddings; start it with `detour gateway` or startGateway()."),
    );
  }
  let routing;
  try {
    routing = resolveRouting(request.headers, parsed.data.model, context.knownAgentIds);
  } catch (error) {
    if (error instanceof RoutingError) return sendGatewayError(reply, openAIDialect, badRouting(error));
    throw error;
  }
  if (routing.model === undefined) {
    return sendGatewayError(
      reply,
      openAIDialect,
      badRequest("Name the embedding model as `provider/model` (or its alias); an agent's chat chain cannot embed.", "model"),
    );
  }
  const client = clientSignal(reply);
  try {
    const outcome = await embed({
      agentId: routing.agentId,
      model: routing.model,
      ...(routing.fallbacks !== undefined ? { fallbacks: routing.fallbacks } : {}),
      request: parsed.data,
      signal: client.signal,
    });
    const answer = outcome.result;
    const costUsd = answer.usage
      ? accountUsage(
          context,
          {
            agentId: routing.agentId,
            provider: outcome.provider,
            model: outcome.model,
            ...(outcome.profileId !== undefined ? { profileId: outcome.profileId } : {}),
          },
          answer.usage,
        )
      : undefined;
    return sendUpstreamAnswer(
      reply,
      { status: 200, headers: answer.headers, body: answer.body },
      { ...outcomeHeaders(outcome), ...droppedHeader(answer.dropped), ...costHeader(costUsd) },
    );
  } catch (error) {
    if (client.signal.aborted) {
      reply.hijack();
      reply.raw.destroy();
      return reply;
    }
    const described = describeRunError(error, context.clock.now());
    if (described.kind === "internal") context.logger.log("error", "Embeddings request failed internally", { error: described.message });
    return sendGatewayError(reply, openAIDialect, described);
  } finally {
    client.done();
  }
}

export function registerEmbeddingsRoute(app: FastifyInstance, context: GatewayContext): void {
  app.post("/v1/embeddings", (request, reply) => handleEmbeddings(context, request, reply));
}
