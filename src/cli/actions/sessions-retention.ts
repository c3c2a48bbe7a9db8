/**
 * What `detour sessions prune [--older-than <duration>]` and `detour sessions remove <key>` do (R-GW-8).
 * Both are explicit writes: a store that does not take them fails the command with exit 1 (R-SB-5).
 */
import type { Command } from "commander";
import type { CliDeps } from "../cli-deps.js";
import { commandContext, withDetour } from "../command-context.js";
import { CliUsageError } from "../output.js";
import type { SessionFlags } from "./sessions.js";

export interface PruneFlags extends SessionFlags {
  olderThan?: string;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `30d`, `12h`, `90m`, `45s`, `2w`. */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([smhdw])$/.exec(text.trim());
  const amount = match ? Number(match[1]) : Number.NaN;
  const unit = match ? UNIT_MS[match[2] as string] : undefined;
  if (!unit || !Number.isFinite(amount) || amount <= 0) {
    throw new CliUsageError(`Invalid --older-than "${text}": use a positive number with s, m, h, d or w (for example "30d" or "12h").`);
  }
  return amount * unit;
}

export async function pruneSessions(deps: CliDeps, command: Command, options: PruneFlags): Promise<void> {
  const context = commandContext(deps, command);
  const olderThanMs = options.olderThan !== undefined ? parseDuration(options.olderThan) : undefined;
  await withDetour(context, {}, async ({ detour }) => {
    const removed = await detour.sessions.prune({ agentId: options.agent, ...(olderThanMs !== undefined ? { olderThanMs } : {}) });
    if (options.json) return context.out.json({ agentId: options.agent, removed });
    const idle = options.olderThan ?? `${detour.config.sessions.idleTtlDays}d (sessions.idleTtlDays)`;
    context.out.line(`Pruned ${removed.length} session(s) of agent ${options.agent} idle for more than ${idle}.`);
  });
}

export async function removeSession(deps: CliDeps, command: Command, key: string, options: SessionFlags): Promise<void> {
  const context = commandContext(deps, command);
  await withDetour(context, {}, async ({ detour }) => {
    const existed = await detour.sessions.remove(key, { agentId: options.agent });
    if (!existed) throw new CliUsageError(`No session "${key}" in agent "${options.agent}". See \`detour sessions list\`.`);
    if (options.json) return context.out.json({ agentId: options.agent, removed: key });
    context.out.line(`Removed session ${key}.`);
  });
}
