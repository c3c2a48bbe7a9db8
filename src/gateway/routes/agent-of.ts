/** The agent a status or admin request is about: `x-detour-agent`, else `?agent=`, else `main`. */
import type { FastifyRequest } from "fastify";
import { DEFAULT_AGENT_ID } from "../../config/index.js";
import { requireKnownAgent } from "../routing.js";

/** R-GW-8: only a configured agent (or `main`); anything else is a 400 before any store is opened. */
export function agentOf(request: FastifyRequest, knownAgentIds: readonly string[]): string {
  const header = request.headers["x-detour-agent"];
  const query = (request.query as Record<string, unknown> | undefined)?.agent;
  const headerValue = (Array.isArray(header) ? header[0] : header)?.trim();
  const queryValue = typeof query === "string" ? query.trim() : undefined;
  const path = headerValue ? "x-detour-agent" : "agent";
  const agentId = headerValue || queryValue || DEFAULT_AGENT_ID;
  return requireKnownAgent(agentId, knownAgentIds, path);
}
