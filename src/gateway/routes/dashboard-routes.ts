/**
 * The live dashboard (`GET /`) and the activity feed its chart reads (`GET /dashboard/activity`).
 * The activity window listens to the runner's events from the moment the gateway starts; it keeps a fixed
 * number of buckets and only configured model names as labels (R-GW-8).
 */
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { agentSettings, type DetourConfig } from "../../config/index.js";
import { headroomText } from "../../engine/headroom-status.js";
import { ActivityWindow } from "../dashboard/activity-window.js";
import { dashboardContentSecurityPolicy, renderDashboard, type DashboardChain } from "../dashboard/render-dashboard.js";
import type { GatewayContext } from "../gateway-context.js";
import { agentOf } from "./agent-of.js";

const REFRESH_MS = 2000;
const OTHER_MODEL = "other";

function chainOf(config: DetourConfig, agentId: string): string[] {
  const selection = agentSettings(config, agentId).model;
  const primary = selection?.primary ?? config.agents.defaults.model.primary;
  const fallbacks = selection ? (selection.fallbacks ?? []) : config.agents.defaults.model.fallbacks;
  return [primary, ...fallbacks].filter((model): model is string => model !== undefined);
}

/** Every `provider/model` the configuration names: the only labels the chart may carry. */
function configuredModels(config: DetourConfig, agentIds: readonly string[]): Set<string> {
  const models = new Set<string>(Object.keys(config.agents.defaults.models));
  for (const agentId of agentIds) for (const model of chainOf(config, agentId)) models.add(model);
  const heartbeat = config.agents.defaults.heartbeat.model;
  if (heartbeat) models.add(heartbeat);
  for (const job of config.cron.jobs) {
    if (job.payload.model) models.add(job.payload.model);
    for (const fallback of job.payload.fallbacks ?? []) models.add(fallback);
  }
  return models;
}

export function registerDashboardRoutes(app: FastifyInstance, context: GatewayContext): void {
  // A reload swaps context.config: the chart's labels follow the config now in use.
  let knownFor = context.config;
  let known = configuredModels(context.config, context.knownAgentIds);
  const knownModels = () => {
    if (knownFor !== context.config) {
      knownFor = context.config;
      known = configuredModels(context.config, context.knownAgentIds);
    }
    return known;
  };
  const activity = new ActivityWindow({
    now: () => context.clock.now(),
    modelLabel: (ref) => (knownModels().has(ref) ? ref : OTHER_MODEL),
  });
  const unsubscribe = context.detour.on("*", activity.onEvent);
  app.addHook("onClose", async () => unsubscribe());

  app.get("/dashboard/activity", async (_request, reply) => reply.header("cache-control", "no-store").send(activity.snapshot()));

  app.get("/", async (request, reply) => {
    const agentId = agentOf(request, context.knownAgentIds);
    const status = await context.detour.status({ agentId });
    const agent = status.agents[0];
    const chains: DashboardChain[] = context.knownAgentIds.map((id) => ({ agentId: id, models: chainOf(context.config, id) }));
    const nonce = randomBytes(16).toString("base64");
    const html = renderDashboard({
      agentId,
      agentIds: context.knownAgentIds,
      now: status.now,
      chains,
      profiles: (agent?.profiles ?? []).map((profile) => ({
        id: profile.id,
        provider: profile.provider ?? "",
        type: profile.type ?? "",
        usageStats: profile.stats,
        ...(profile.headroom ? { headroom: headroomText(profile.headroom) } : {}),
      })),
      refreshMs: REFRESH_MS,
      nonce,
    });
    return reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .header("content-security-policy", dashboardContentSecurityPolicy(nonce))
      .send(html);
  });
}
