/**
 * Routing of Responses requests that depend on server-held state (`previous_response_id`, `conversation`,
 * `prompt`, `item_reference` inputs). Detour is stateless (`store: false` semantics) and cannot move that
 * state, so such a request is pinned to the provider that holds it: the first provider of the request's
 * chain that speaks the Responses API. Other candidates are skipped as `incompatible`; when the holder cannot
 * answer, the client is told so with a stable code instead of an answer from a model that lacks the state.
 */
import { agentSettings, modelAliases, resolveModelName, resolveProviderSettings, type DetourConfig } from "../config/index.js";
import type { ProviderPin } from "../engine/index.js";
import type { GatewayError } from "./http-errors.js";
import type { RoutingOptions } from "./routing.js";
import { ERROR_CODES } from "../core/errors.js";

export const RESPONSE_STATE_UNROUTABLE = ERROR_CODES.responseStateUnroutable;
export const RESPONSE_STATE_UNAVAILABLE = ERROR_CODES.responseStateUnavailable;

/** The chain's model texts in the runner's order (requested, fallbacks, then the configured primary). */
function chainTexts(config: DetourConfig, routing: RoutingOptions): string[] {
  const agent = agentSettings(config, routing.agentId);
  const primary = agent.model?.primary ?? config.agents.defaults.model.primary;
  const fallbacks = routing.fallbacks ?? (agent.model ? (agent.model.fallbacks ?? []) : config.agents.defaults.model.fallbacks);
  return [routing.model ?? primary, ...fallbacks, ...(routing.fallbacks === undefined && primary !== undefined ? [primary] : [])].filter(
    (text): text is string => typeof text === "string",
  );
}

/** The provider holding the state a request refers to, or a 400 when no candidate speaks the Responses API. */
export function responseStatePin(
  config: DetourConfig,
  routing: RoutingOptions,
  field: string,
): { ok: true; pin: ProviderPin } | { ok: false; error: GatewayError } {
  const aliases = modelAliases(config);
  for (const text of chainTexts(config, routing)) {
    const resolved = resolveModelName(config, aliases, text);
    if (!resolved.ok) continue;
    const provider = resolved.ref.slice(0, resolved.ref.indexOf("/"));
    if (resolveProviderSettings(config, provider)?.api === "openai-responses") return { ok: true, pin: { provider, field } };
  }
  return {
    ok: false,
    error: {
      status: 400,
      kind: "invalid_request",
      code: RESPONSE_STATE_UNROUTABLE,
      param: field,
      message:
        `"${field}" refers to state stored by a Responses API provider, but no model of this request's chain is served ` +
        `by one (api "openai-responses"). Send the whole conversation in "input" without "${field}" (Detour is stateless), ` +
        `or route the request to the provider that stored it.`,
    },
  };
}

const CLIENT_STATUSES: ReadonlySet<number> = new Set([400, 404, 413, 422]);

/** A failed run of a pinned request: the same status and Retry-After, said in terms of the held state. */
export function explainPinnedFailure(error: GatewayError, pin: ProviderPin): GatewayError {
  // The client's own mistakes (a stale id, a bad body) keep the provider's answer (R-GW-9).
  if (CLIENT_STATUSES.has(error.status)) return error;
  // The other candidates were skipped by design: the holder's own failures say what the client should do.
  const held = (error.attempts ?? []).filter((attempt) => attempt.provider === pin.provider && attempt.reason !== "incompatible");
  const rateLimited = held.length > 0 && held.every((attempt) => attempt.reason === "rate_limit");
  return {
    ...error,
    ...(rateLimited ? { status: 429, kind: "rate_limit" as const } : {}),
    code: RESPONSE_STATE_UNAVAILABLE,
    param: pin.field,
    message:
      `"${pin.field}" refers to state that only provider ${pin.provider} holds, and ${pin.provider} cannot answer now ` +
      `(${error.message}). No other model can continue it: retry ${error.retryAfterSeconds !== undefined ? `after ${error.retryAfterSeconds}s` : "later"}, ` +
      `or send the whole conversation in "input" without "${pin.field}" so any model of the chain can answer.`,
  };
}
