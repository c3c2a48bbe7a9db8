/**
 * Admin routes (SPEC R-GW-1, R-GW-5): sessions (`GET|PATCH /admin/sessions/:key`,
 * `POST /admin/sessions/:key/reset`), profiles (`GET /admin/profiles`, `POST /admin/profiles/:id/reset`) and
 * recent runs (`GET /admin/runs`, runs-route.ts).
 * Access is decided by the auth hook in app.ts before these handlers run. Answers use the OpenAI error
 * shape, the gateway's default for routes outside a dialect.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { toDialectIssues, describeDialectIssues } from "../../wire/shared/validation-issues.js";
import { openAIDialect } from "../dialect-adapters/openai-dialect.js";
import type { GatewayContext } from "../gateway-context.js";
import { badRequest, notFound } from "../http-errors.js";
import { ModelNameError } from "../../config/index.js";
import { UnknownProfileError } from "../session-patch-checks.js";
import { agentOf } from "./agent-of.js";
import { sendGatewayError } from "./chat-route.js";
import { publicProfile } from "./info-routes.js";
import { registerRunsRoute } from "./runs-route.js";

/** `model` / `profile`: a value sets it, `null` removes it, absent leaves it alone. */
const sessionPatchSchema = z.strictObject({
  model: z.string().trim().min(1).nullable().optional(),
  profile: z.string().trim().min(1).nullable().optional(),
});

export function registerAdminRoutes(app: FastifyInstance, context: GatewayContext): void {
  const { detour } = context;
  registerRunsRoute(app, context);

  app.get<{ Params: { key: string } }>("/admin/sessions/:key", async (request, reply) => {
    const agentId = agentOf(request, context.knownAgentIds);
    const session = await detour.sessions.get(request.params.key, { agentId });
    if (!session) {
      return sendGatewayError(reply, openAIDialect, notFound(`No session "${request.params.key}" exists for agent ${agentId}.`));
    }
    return { agentId, session };
  });

  app.patch<{ Params: { key: string } }>("/admin/sessions/:key", async (request, reply) => {
    const agentId = agentOf(request, context.knownAgentIds);
    const parsed = sessionPatchSchema.safeParse(request.body ?? {});
    if (!parsed.success) {
      const issues = toDialectIssues(parsed.error.issues);
      return sendGatewayError(reply, openAIDialect, badRequest(`Invalid session patch: ${describeDialectIssues(issues)}`, issues[0]?.path));
    }
    const patch = {
      ...(parsed.data.model !== undefined ? { model: parsed.data.model } : {}),
      ...(parsed.data.profile !== undefined ? { profile: parsed.data.profile } : {}),
    };
    try {
      const session = await detour.sessions.patch(request.params.key, patch, { agentId });
      return { agentId, session };
    } catch (error) {
      // An unknown provider, an unresolvable model or a ghost pin is the caller's to fix (R-SO-4, R-PO-6).
      if (error instanceof ModelNameError)
        return sendGatewayError(reply, openAIDialect, { ...badRequest(error.message, "model"), code: error.code });
      if (error instanceof UnknownProfileError)
        return sendGatewayError(reply, openAIDialect, { ...badRequest(error.message, "profile"), code: error.code });
      throw error;
    }
  });

  app.post<{ Params: { key: string } }>("/admin/sessions/:key/reset", async (request) => {
    const agentId = agentOf(request, context.knownAgentIds);
    const session = await detour.sessions.reset(request.params.key, { agentId });
    return { agentId, reset: true, session: session ?? null };
  });

  app.get("/admin/profiles", async (request) => {
    const agentId = agentOf(request, context.knownAgentIds);
    const profiles = await detour.profiles.list({ agentId });
    return { agentId, profiles: profiles.map(publicProfile) };
  });

  app.post<{ Params: { id: string } }>("/admin/profiles/:id/reset", async (request, reply) => {
    const agentId = agentOf(request, context.knownAgentIds);
    const profiles = await detour.profiles.list({ agentId });
    const profile = profiles.find((candidate) => candidate.id === request.params.id);
    if (!profile) {
      return sendGatewayError(
        reply,
        openAIDialect,
        notFound(`No profile "${request.params.id}" exists for agent ${agentId}; list them with GET /admin/profiles.`),
      );
    }
    await detour.profiles.reset(profile.id, { agentId });
    const [after] = await detour.profiles
      .list({ agentId, ...(profile.provider ? { provider: profile.provider } : {}) })
      .then((list) => list.filter((candidate) => candidate.id === profile.id));
    return { agentId, reset: true, profile: publicProfile(after ?? profile) };
  });
}
