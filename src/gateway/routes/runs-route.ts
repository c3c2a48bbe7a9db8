/**
 * `GET /admin/runs` (R-OB-4): an agent's recent runs as recorded in its run traces, newest first, for the
 * dashboard's request log and for scripts. Filters: `outcome`, `model` (asked for or called), `session` (a
 * session key, hashed here as the traces hash it) or `sessionHash`. `limit` is bounded by the gateway, never
 * by the caller. An admin route: the auth hook in app.ts decides access, as for every `/admin/*` route.
 * A trace holds no prompt or answer text and no secret, and its session key is hashed (core/run-trace.ts).
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { hashSessionKey, type TraceQuery } from "../../ports/trace-store.js";
import { describeDialectIssues, toDialectIssues } from "../../wire/shared/validation-issues.js";
import { openAIDialect } from "../dialect-adapters/openai-dialect.js";
import type { GatewayContext } from "../gateway-context.js";
import { badRequest, notFound } from "../http-errors.js";
import { agentOf } from "./agent-of.js";
import { sendGatewayError } from "./chat-route.js";

export const RUNS_DEFAULT_LIMIT = 50;
/** The most runs one request returns, whatever it asks for. */
export const RUNS_MAX_LIMIT = 200;

const OUTCOMES = ["succeeded", "failed", "aborted", "content_filter"] as const;

const runsQuerySchema = z.object({
  agent: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(RUNS_MAX_LIMIT).default(RUNS_DEFAULT_LIMIT),
  outcome: z.enum(OUTCOMES).optional(),
  model: z.string().trim().min(1).max(300).optional(),
  session: z.string().min(1).max(1000).optional(),
  sessionHash: z
    .string()
    .regex(/^[0-9a-f]{32}$/, "32 lower-case hex digits, as a run's sessionHash")
    .optional(),
});

/** An empty parameter (`?outcome=`, a cleared filter field) means no filter. */
function withoutEmpty(query: unknown): Record<string, unknown> {
  const given = (query ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== ""));
}

export function registerRunsRoute(app: FastifyInstance, context: GatewayContext): void {
  app.get("/admin/runs", async (request, reply) => {
    const agentId = agentOf(request, context.knownAgentIds);
    const parsed = runsQuerySchema.safeParse(withoutEmpty(request.query));
    if (!parsed.success) {
      const issues = toDialectIssues(parsed.error.issues);
      return sendGatewayError(
        reply,
        openAIDialect,
        badRequest(
          `Invalid /admin/runs query: ${describeDialectIssues(issues)}. limit is 1–${RUNS_MAX_LIMIT}; outcome is one of ${OUTCOMES.join(", ")}.`,
          issues[0]?.path,
        ),
      );
    }
    const traces = context.detour.traces;
    if (!traces) {
      return sendGatewayError(reply, openAIDialect, notFound("This gateway's engine records no run traces."));
    }
    const { limit, outcome, model, session, sessionHash } = parsed.data;
    const query: TraceQuery = {
      limit,
      ...(outcome ? { outcome } : {}),
      ...(model ? { model } : {}),
      ...(session !== undefined ? { sessionHash: hashSessionKey(session) } : sessionHash ? { sessionHash } : {}),
    };
    const runs = (await traces.list({ agentId, ...query })).reverse();
    return reply.header("cache-control", "no-store").send({ agentId, limit, runs, traceWrites: traces.writes() });
  });
}
