/**
 * Request routing of the gateway (SPEC R-GW-3): the `x-detour-*` headers and the request's `model` field
 * become the run options the engine takes. Bad values are a 400 naming the header or field, decided before
 * anything reaches a provider (R-GW-4).
 */
import { DEFAULT_AGENT_ID } from "../config/index.js";
import { DetourError, ERROR_CODES } from "../core/errors.js";

export type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

/** The keyword in the `model` field that means "the agent's configured chain". */
export const DETOUR_MODEL_KEYWORD = "detour";

const AGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export interface RoutingOptions {
  agentId: string;
  sessionKey?: string;
  /** `[]` for `none`: no fallback and no hidden retry target (R-CH-1). */
  fallbacks?: string[];
  source?: "cron" | "heartbeat";
  /** The model the request names; absent when it asks for the agent's configured chain. */
  model?: string;
}

export class RoutingError extends DetourError {
  readonly code = ERROR_CODES.badRouting;
  /** The header or body field at fault, e.g. `x-detour-fallbacks` or `model`. */
  readonly path: string;
  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.path = path;
  }
}

function single(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  const text = Array.isArray(value) ? value.join(",") : value;
  const trimmed = text?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

function parseFallbacks(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  if (text.toLowerCase() === "none") return [];
  const entries = text.split(",").map((entry) => entry.trim());
  if (entries.some((entry) => entry === "")) {
    throw new RoutingError("x-detour-fallbacks", "expected a comma-separated list of models, or `none`.");
  }
  return entries;
}

function parseSource(text: string | undefined): RoutingOptions["source"] {
  if (text === undefined) return undefined;
  // Header values are case-insensitive words, like `none` in x-detour-fallbacks.
  const source = text.trim().toLowerCase();
  if (source === "cron" || source === "heartbeat") return source;
  throw new RoutingError("x-detour-source", `expected \`cron\` or \`heartbeat\`, got ${JSON.stringify(text)}.`);
}

/**
 * R-GW-8: an agent id from a client must name a configured agent (or `main`). Checked before anything is
 * opened, so an unknown id creates no store, folder or file.
 */
export function requireKnownAgent(agentId: string, knownAgentIds: readonly string[], path = "x-detour-agent"): string {
  if (!AGENT_ID_PATTERN.test(agentId)) {
    throw new RoutingError(path, "expected an agent id of letters, digits, '.', '_' or '-'.");
  }
  if (!knownAgentIds.includes(agentId)) {
    throw new RoutingError(
      path,
      `no agent ${JSON.stringify(agentId)} is configured; known agents: ${knownAgentIds.join(", ")} (add it to agents.list to use it).`,
    );
  }
  return agentId;
}

/**
 * Reads the routing headers and the `model` field. `knownAgentIds` are the agents of the config: a `model`
 * naming one of them (or `detour`) asks for that agent's configured chain.
 */
export function resolveRouting(headers: HeaderBag, model: string | undefined, knownAgentIds: readonly string[]): RoutingOptions {
  const headerAgent = single(headers, "x-detour-agent");
  if (headerAgent !== undefined) requireKnownAgent(headerAgent, knownAgentIds);
  const sessionKey = single(headers, "x-detour-session");
  const fallbacks = parseFallbacks(single(headers, "x-detour-fallbacks"));
  const source = parseSource(single(headers, "x-detour-source"));

  const modelText = model?.trim();
  let agentId = headerAgent ?? DEFAULT_AGENT_ID;
  let requestedModel: string | undefined = modelText === "" ? undefined : modelText;
  if (requestedModel === DETOUR_MODEL_KEYWORD) {
    requestedModel = undefined;
  } else if (requestedModel !== undefined && !requestedModel.includes("/") && knownAgentIds.includes(requestedModel)) {
    if (headerAgent !== undefined && headerAgent !== requestedModel) {
      throw new RoutingError(
        "model",
        `names agent ${JSON.stringify(requestedModel)} but x-detour-agent says ${JSON.stringify(headerAgent)}; send one of them.`,
      );
    }
    agentId = requestedModel;
    requestedModel = undefined;
  }
  return {
    agentId,
    ...(sessionKey !== undefined ? { sessionKey } : {}),
    ...(fallbacks !== undefined ? { fallbacks } : {}),
    ...(source !== undefined ? { source } : {}),
    ...(requestedModel !== undefined ? { model: requestedModel } : {}),
  };
}
