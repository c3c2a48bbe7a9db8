/**
 * `GET /v1/models/:id` (either dialect: Anthropic's shape when the client sends `anthropic-version`) and
 * `POST /v1/messages/count_tokens` (Anthropic's shape). A model id may contain `/` (`openai/gpt-4o`), so the
 * id is the rest of the path. count_tokens answers with the documented estimate of R-FB-8 (src/core/fit.ts)
 * and says so in `x-detour-estimate: true`: it never spends a provider request.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { requestFacts } from "../../engine/request-facts.js";
import type { GatewayDialect } from "../dialect.js";
import { anthropicDialect } from "../dialect-adapters/anthropic-dialect.js";
import { openAIDialect } from "../dialect-adapters/openai-dialect.js";
import type { GatewayContext } from "../gateway-context.js";
import { sendGatewayError } from "./chat-route.js";
import { listedModels } from "./info-routes.js";

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

export function registerModelRoutes(app: FastifyInstance, context: GatewayContext): void {
  app.get("/v1/models/*", async (request, reply) => {
    const id = modelIdOf(request);
    const dialect: GatewayDialect = speaksAnthropic(request) ? anthropicDialect : openAIDialect;
    const model = listedModels(context).find((listed) => listed.id === id);
    if (!model) {
      return sendGatewayError(reply, dialect, {
        status: 404,
        kind: "not_found",
        message: `The model ${JSON.stringify(id)} is not configured here. GET /v1/models lists the models this gateway serves.`,
        code: "DETOUR_NOT_FOUND",
        param: "model",
      });
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
    if (!parsed.ok) return reply.code(400).type("application/json; charset=utf-8").send(anthropicDialect.renderValidationError(parsed.issues));
    const { inputTokens } = requestFacts(parsed.value.request);
    return reply.header(ESTIMATE_HEADER, "true").send({ input_tokens: inputTokens });
  });
}
