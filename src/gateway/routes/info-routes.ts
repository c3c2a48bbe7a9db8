/**
 * Read-only routes (SPEC R-GW-1, R-OB-3): `GET /healthz`, `GET /status` (JSON), `GET /metrics` (Prometheus
 * text), `GET /v1/models` (in the dialect the client speaks). The dashboard at `/` is dashboard-routes.ts.
 * Profiles are shown by id, type and usage stats only — never a credential (R-OB-2).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { agentSettings, modelAliases } from "../../config/index.js";
import type { ProfileStatus } from "../../engine/index.js";
import type { GatewayContext } from "../gateway-context.js";
import { profileStateOf } from "../metrics.js";
import { DETOUR_MODEL_KEYWORD } from "../routing.js";
import { pageOfSessions, parseSessionPage, type SessionPageRequest } from "../status-page/session-page.js";
import { agentOf } from "./agent-of.js";

/** The public view of a profile: what R-AP-4 stores, plus whether it may be used right now. */
export function publicProfile(profile: ProfileStatus) {
  return {
    id: profile.id,
    provider: profile.provider ?? null,
    type: profile.type ?? null,
    usableNow: profile.usable,
    usageStats: profile.stats,
  };
}

/** Every model a client may name: the agents' chains, aliases, `detour` and the agent ids themselves. */
export function listedModels(context: GatewayContext): { id: string; ownedBy: string }[] {
  const { config } = context;
  const seen = new Map<string, string>();
  const add = (id: string | undefined, ownedBy: string) => {
    if (id !== undefined && !seen.has(id)) seen.set(id, ownedBy);
  };
  add(DETOUR_MODEL_KEYWORD, "detour");
  for (const agentId of context.knownAgentIds) if (agentId !== "main") add(agentId, "detour");
  const refs = [
    config.agents.defaults.model.primary,
    ...config.agents.defaults.model.fallbacks,
    ...Object.keys(config.agents.defaults.models),
    ...config.agents.list.flatMap((agent) => {
      const selection = agentSettings(config, agent.id).model;
      return selection ? [selection.primary, ...(selection.fallbacks ?? [])] : [];
    }),
  ];
  for (const ref of refs) if (ref?.includes("/")) add(ref, ref.split("/")[0] ?? "detour");
  for (const [alias, target] of Object.entries(modelAliases(config))) add(alias, target.split("/")[0] ?? "detour");
  return [...seen].map(([id, ownedBy]) => ({ id, ownedBy }));
}

/** `?sessionsOffset=&sessionsLimit=` (R-GW-8); a bad value throws a RoutingError-like 400 (app.ts maps it). */
function sessionPageOf(request: FastifyRequest): SessionPageRequest {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  return parseSessionPage({ offset: text(query.sessionsOffset), limit: text(query.sessionsLimit) });
}

function speaksAnthropic(request: FastifyRequest): boolean {
  return request.headers["anthropic-version"] !== undefined;
}

export function registerInfoRoutes(app: FastifyInstance, context: GatewayContext): void {
  app.get("/healthz", async () => ({ status: "ok" }));

  app.get("/status", async (request) => {
    const agentId = agentOf(request, context.knownAgentIds);
    const page = sessionPageOf(request);
    const status = await context.detour.status({ agentId });
    const agent = status.agents[0];
    return {
      now: status.now,
      agentId,
      profiles: (agent?.profiles ?? []).map((profile) => ({
        ...publicProfile(profile),
        ...(profile.unusableUntil !== undefined ? { unusableUntil: profile.unusableUntil } : {}),
        ...(profile.unusableReason !== undefined ? { unusableReason: profile.unusableReason } : {}),
        lastGood: profile.lastGood,
        ...(profile.headroom ? { headroom: profile.headroom } : {}),
        // R-GW-7: what the profile's priced answers cost in the last 24 hours, in US dollars.
        spendUsd24h: profile.spendUsd24h,
        // R-PO-8: attempts in flight, the seats the profile has and requests waiting in line for it.
        ...(profile.seats ? { seats: profile.seats } : {}),
      })),
      lastGood: agent?.lastGood ?? {},
      queueLength: status.queueLength ?? 0,
      ...pageOfSessions(agent?.sessions ?? [], page),
      // Each model's recent first-token times, the first-token deadline in force and the hedge delay.
      firstToken: status.firstToken ?? [],
    };
  });

  app.get("/metrics", async (_request, reply) => {
    const text = await context.metrics.render();
    return reply.type(context.metrics.contentType).send(text);
  });

  app.get("/v1/models", async (request) => {
    const models = listedModels(context);
    if (speaksAnthropic(request)) {
      return {
        data: models.map((model) => ({
          type: "model",
          id: model.id,
          display_name: model.id,
          created_at: new Date(0).toISOString(),
        })),
        has_more: false,
        first_id: models[0]?.id ?? null,
        last_id: models.at(-1)?.id ?? null,
      };
    }
    return { object: "list", data: models.map((model) => ({ id: model.id, object: "model", created: 0, owned_by: model.ownedBy })) };
  });
}

/** Profile states for the metrics gauges, across every agent the process has opened. */
export function profileStatesOf(status: Awaited<ReturnType<GatewayContext["detour"]["status"]>>) {
  return status.agents.flatMap((agent) =>
    agent.profiles.map((profile) => ({
      provider: profile.provider ?? "unknown",
      state: profile.usable ? ("usable" as const) : profileStateOf(profile.stats, status.now),
    })),
  );
}

/** R-PO-8: in-flight attempts of every profile with seats, and the process's waiting line, from one status read. */
export function seatSamplesOf(status: Awaited<ReturnType<GatewayContext["detour"]["status"]>>) {
  const inFlight = status.agents.flatMap((agent) =>
    agent.profiles.flatMap((profile) =>
      profile.seats ? [{ agent: agent.agentId, profile: profile.id, inFlight: profile.seats.inFlight }] : [],
    ),
  );
  return { inFlight, queueLength: status.queueLength ?? 0 };
}
