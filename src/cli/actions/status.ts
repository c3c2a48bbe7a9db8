/** What `detour status` does: profiles with their cooldowns, last good profiles, sessions. */
import type { Command } from "commander";
import type { DetourConfig } from "../../config/index.js";
import { headroomText, type Detour, type ProfileStatus } from "../../engine/index.js";
import type { CliDeps } from "../cli-deps.js";
import { commandContext, withDetour } from "../command-context.js";
import { CliUsageError, type CliOutput } from "../output.js";
import { formatTimestamp, profileStateText, spendText } from "../views/profile-view.js";
import { pageOfSessions, parseSessionPage, SessionPageError } from "../../gateway/status-page/session-page.js";
import { SESSION_TABLE_HEAD, sessionLines, sessionRow } from "../views/session-view.js";

export interface StatusFlags {
  agent: string;
  session?: string;
  sessionsLimit?: string;
  sessionsOffset?: string;
  json?: boolean;
}

/** An explicit profile order of one provider (R-AP-3): the stored one wins over `auth.order`. */
export interface ProviderOrder {
  provider: string;
  profiles: string[];
  source: "stored" | "config";
}

/** The explicit orders of the providers that have profiles; a provider without one goes round robin. */
async function providerOrders(
  detour: Detour,
  config: DetourConfig,
  agentId: string,
  profiles: readonly ProfileStatus[],
): Promise<ProviderOrder[]> {
  const store = await detour.store(agentId);
  const providers = [...new Set(profiles.flatMap((profile) => (profile.provider ? [profile.provider] : [])))].sort();
  const orders: ProviderOrder[] = [];
  for (const provider of providers) {
    const stored = await store.getStoredOrder(provider);
    const configured = Object.hasOwn(config.auth.order, provider) ? config.auth.order[provider] : undefined;
    if (stored !== undefined) orders.push({ provider, profiles: stored, source: "stored" });
    else if (configured !== undefined) orders.push({ provider, profiles: [...configured], source: "config" });
  }
  return orders;
}

const ORDER_SOURCE_TEXT: Readonly<Record<ProviderOrder["source"], string>> = {
  stored: "set with `detour auth order set`",
  config: "auth.order in the config",
};

function colouredState(out: CliOutput, profile: ProfileStatus, now: number): string {
  const text = profileStateText(profile, now);
  if (profile.usable) return text === "ok" ? out.colors.green(text) : out.colors.yellow(text);
  return text.startsWith("disabled") ? out.colors.red(text) : out.colors.yellow(text);
}

export async function showStatus(deps: CliDeps, command: Command, options: StatusFlags): Promise<void> {
  const context = commandContext(deps, command);
  const { out } = context;
  let pageRequest;
  try {
    pageRequest = parseSessionPage(
      { offset: options.sessionsOffset, limit: options.sessionsLimit },
      { offset: "--sessions-offset", limit: "--sessions-limit" },
    );
  } catch (error) {
    if (error instanceof SessionPageError) throw new CliUsageError(error.message);
    throw error;
  }
  await withDetour(context, { discoverEnvCredentials: true, readOnly: true }, async ({ detour, config, configFile }) => {
    const snapshot = await detour.status({ agentId: options.agent });
    const agent = snapshot.agents[0];
    if (!agent) throw new Error(`No status for agent ${options.agent}.`);
    const session = options.session !== undefined ? agent.sessions.find((entry) => entry.sessionKey === options.session) : undefined;
    if (options.session !== undefined && !session) {
      throw new CliUsageError(`No session "${options.session}" in agent "${options.agent}". See \`detour sessions list\`.`);
    }
    const orders = await providerOrders(detour, config, options.agent, agent.profiles);
    if (options.json) {
      out.json({
        now: snapshot.now,
        agentId: agent.agentId,
        configFile: configFile ?? null,
        profiles: agent.profiles,
        order: orders,
        lastGood: agent.lastGood,
        ...(session ? { sessions: [session] } : pageOfSessions(agent.sessions, pageRequest)),
        firstToken: snapshot.firstToken ?? [],
      });
      return;
    }
    const now = snapshot.now;
    out.line(out.colors.bold(`Agent ${agent.agentId}`) + out.colors.dim(`  config: ${configFile ?? "(defaults)"}`));
    if (agent.profiles.length === 0) {
      out.line("No profiles. Add one with `detour auth add <provider> --key -`, or export OPENAI_API_KEY & co.");
    } else {
      out.table(
        ["profile", "provider", "type", "state", "headroom", "seats", "errors", "spend 24h", "last used", "last good"],
        agent.profiles.map((profile) => [
          profile.id,
          profile.provider,
          profile.type,
          colouredState(out, profile, now),
          headroomText(profile.headroom),
          seatsCell(profile.seats),
          profile.stats.errorCount ?? 0,
          spendText(profile.spendUsd24h),
          formatTimestamp(profile.stats.lastUsed, now),
          profile.lastGood ? "yes" : "",
        ]),
      );
    }
    const firstToken = snapshot.firstToken ?? [];
    if (firstToken.length > 0) {
      out.table(
        ["model", "samples", "first token p50 · p95 · p99", "deadline", "hedge after"],
        firstToken.map((row) => [
          `${row.provider}/${row.model}`,
          row.samples,
          `${msText(row.p50Ms)} · ${msText(row.p95Ms)} · ${msText(row.p99Ms)}`,
          msText(row.deadlineMs),
          row.hedgeAfterMs === null ? "off" : msText(row.hedgeAfterMs),
        ]),
      );
    }
    for (const order of orders) {
      out.line(`Order of ${order.provider}: ${order.profiles.join(" → ")}  ${out.colors.dim(`(${ORDER_SOURCE_TEXT[order.source]})`)}`);
    }
    if (session) {
      out.line();
      for (const line of sessionLines(session, now)) out.line(line);
      return;
    }
    // R-GW-8: a page of sessions with the total, never all of them.
    const page = pageOfSessions(agent.sessions, pageRequest);
    if (page.sessions.length > 0) {
      out.line();
      out.table(
        [...SESSION_TABLE_HEAD],
        page.sessions.map((entry) => sessionRow(entry, now)),
      );
    }
    if (page.sessionsTotal > page.sessions.length) {
      const first = page.sessionsOffset + 1;
      const shown = page.sessions.length > 0 ? `${first}–${page.sessionsOffset + page.sessions.length}` : "none";
      out.line(
        out.colors.dim(
          `Sessions ${shown} of ${page.sessionsTotal}, newest first; see more with --sessions-offset ${page.sessionsOffset + page.sessionsLimit} or \`detour sessions list\`.`,
        ),
      );
    }
  });
}

/** R-PO-8: "1/2" in flight of the profile's seats, and how many wait in line for it. */
function seatsCell(seats: { inFlight: number; limit: number | null; queued: number } | undefined): string {
  if (!seats) return "";
  const used = seats.limit === null ? `${seats.inFlight}` : `${seats.inFlight}/${seats.limit}`;
  return seats.queued > 0 ? `${used} (${seats.queued} waiting)` : used;
}

function msText(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${Math.round(ms)} ms`;
}
