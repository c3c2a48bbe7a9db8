/** The agent a status or admin request is about: `x-detour-agent`, else `?agent=`, else `main`. */
import type { FastifyRequest } from "fastify";
import { DEFAULT_AGENT_ID } from "../../config/index.js";
import { RoutingError } from "../routing.js";

const AGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function agentOf(request: FastifyRequest): string {
  const header = request.headers["x-detour-agent"];
  const query = (request.query as Record<string, unknown> | undefined)?.agent;
  const value = (Array.isArray(header) ? header[0] : header) ?? (typeof query === "string" ? query : undefined);
  const agentId = value?.trim() || DEFAULT_AGENT_ID;
  if (!AGENT_ID_PATTERN.test(agentId)) {
    throw new RoutingError("x-detour-agent", "expected an agent id of letters, digits, '.', '_' or '-'.");
  }
  return agentId;
}
