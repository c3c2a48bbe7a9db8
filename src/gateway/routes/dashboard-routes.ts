/**
 * The live dashboard (`GET /`), the activity feed its chart reads (`GET /dashboard/activity`) and its icon
 * (`GET /favicon.ico`). The activity window listens to the runner's events and the answers' accounting from
 * the moment the gateway starts; it keeps a fixed number of buckets and bounded model labels (R-GW-8): the
 * configured models by name, then the first few other models that answered, then "other models".
 */
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { agentSettings, type DetourConfig } from "../../config/index.js";
import { headroomText, type ProfileSeatStatus } from "../../engine/index.js";
import { ActivityWindow } from "../dashboard/activity-window.js";
import { dashboardContentSecurityPolicy, renderDashboard, type DashboardChain } from "../dashboard/render-dashboard.js";
import type { GatewayContext } from "../gateway-context.js";
import { agentOf } from "./agent-of.js";

const REFRESH_MS = 2000;
const OTHER_MODELS = "other models";
/** Models outside the configuration that the chart names before it groups the rest as "other models". */
const NAMED_UNCONFIGURED_MODELS = 12;

/** The page's icon: a small inline SVG (a detour arrow), so a browser's `/favicon.ico` request finds one. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#111827"/>' +
  '<path d="M7 24V14a5 5 0 0 1 5-5h11" fill="none" stroke="#60a5fa" stroke-width="3.2" stroke-linecap="round"/>' +
  '<path d="M19 4.5 24.5 9 19 13.5" fill="none" stroke="#60a5fa" stroke-width="3.2" stroke-linecap="round" stroke-linejoin="round"/>' +
  '<circle cx="7" cy="24" r="2.6" fill="#34d399"/></svg>';

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
  // Bounded by count, so a client naming many models cannot grow the chart's labels without limit.
  const namedOthers = new Set<string>();
  const modelLabel = (ref: string): string => {
    if (knownModels().has(ref) || namedOthers.has(ref)) return ref;
    if (namedOthers.size >= NAMED_UNCONFIGURED_MODELS) return OTHER_MODELS;
    namedOthers.add(ref);
    return ref;
  };
  const activity = new ActivityWindow({ now: () => context.clock.now(), modelLabel });
  const unsubscribe = context.detour.on("*", activity.onEvent);
  const unobserve = context.metrics.observeAnswers(activity);
  app.addHook("onClose", async () => {
    unsubscribe();
    unobserve();
  });

  app.get("/favicon.ico", async (_request, reply) =>
    reply.type("image/svg+xml").header("cache-control", "public, max-age=86400").send(FAVICON_SVG),
  );

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
        spendUsd24h: profile.spendUsd24h,
        ...(profile.seats ? { seats: seatsText(profile.seats) } : {}),
      })),
      refreshMs: REFRESH_MS,
      nonce,
      favicon: FAVICON_SVG,
    });
    return reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .header("content-security-policy", dashboardContentSecurityPolicy(nonce))
      .send(html);
  });
}

/** R-PO-8: the Seats cell, as the dashboard script writes it on refresh. */
function seatsText(seats: ProfileSeatStatus): string {
  const used = seats.limit === null ? `${seats.inFlight} in flight` : `${seats.inFlight}/${seats.limit} in flight`;
  return seats.queued > 0 ? `${used} · ${seats.queued} waiting` : used;
}
