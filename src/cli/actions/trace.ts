/**
 * What `detour trace export [--since ISO] [--until ISO] [--session KEY]` does (R-OB-4): prints the agent's
 * kept run traces as JSON Lines, one run per line, oldest first. Looking never creates state: an agent
 * without a state file prints nothing.
 */
import { existsSync } from "node:fs";
import type { Command } from "commander";
import { readEnvKnobs } from "../../config/index.js";
import { runTraceLine } from "../../core/run-trace.js";
import { openTraceStore, sqliteStatePath } from "../../engine/index.js";
import { hashSessionKey, type TraceQuery } from "../../ports/trace-store.js";
import type { CliDeps } from "../cli-deps.js";
import { commandContext, loadCliConfig } from "../command-context.js";
import { CliUsageError } from "../output.js";

export interface TraceExportFlags {
  agent: string;
  since?: string;
  until?: string;
  session?: string;
}

function parseInstant(flag: string, text: string): number {
  const at = Date.parse(text);
  if (!Number.isFinite(at)) {
    throw new CliUsageError(`Invalid ${flag} "${text}": use an ISO date or time, for example "2026-01-05T12:00:00Z".`);
  }
  return at;
}

export async function exportTraces(deps: CliDeps, command: Command, options: TraceExportFlags): Promise<void> {
  const context = commandContext(deps, command);
  const query: TraceQuery = {
    ...(options.since !== undefined ? { since: parseInstant("--since", options.since) } : {}),
    ...(options.until !== undefined ? { until: parseInstant("--until", options.until) } : {}),
    ...(options.session !== undefined ? { sessionHash: hashSessionKey(options.session) } : {}),
  };
  const { config } = await loadCliConfig(context);
  const backend = config.state.backend;
  // Memory traces live and die with the process that ran: another process has none to show.
  if (backend === "memory") return;
  const { detourHome } = readEnvKnobs(deps.env, { cwd: deps.cwd });
  if (backend === "sqlite" && !existsSync(sqliteStatePath(detourHome, options.agent))) return;
  const store = await openTraceStore({ backend, agentId: options.agent, detourHome, redis: config.state.redis, retention: config.trace });
  try {
    for (const trace of await store.list(query, Date.now())) context.out.line(runTraceLine(trace));
  } finally {
    await store.close();
  }
}
