/**
 * R-SB-3: every agent's store opens, passes `PRAGMA integrity_check` (SQLite) and its secrets decrypt with
 * the current key (R-SB-4). Only stores that already exist are opened: the doctor never creates state.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { DetourConfig } from "../../config/index.js";
import type { StateStore } from "../../ports/state-store.js";
import { openStateStore } from "../../engine/index.js";
import { describeError } from "../cli-errors.js";
import type { DoctorCheck } from "./doctor-check.js";

const SQLITE_FILE_NAME = "detour-agent.sqlite";

export interface StoreLocation {
  config: DetourConfig;
  detourHome: string;
  env: NodeJS.ProcessEnv;
  secretKey?: string;
}

/** Agents whose SQLite store exists on disk. */
export function existingSqliteAgents(detourHome: string): string[] {
  const agentsDir = join(detourHome, "agents");
  if (!existsSync(agentsDir)) return [];
  return readdirSync(agentsDir)
    .filter((agentId) => existsSync(join(agentsDir, agentId, "agent", SQLITE_FILE_NAME)))
    .sort();
}

function integrityOf(store: StateStore): string | undefined {
  const check = (store as { integrityCheck?: () => string }).integrityCheck;
  return typeof check === "function" ? check.call(store) : undefined;
}

export async function openAgentStore(location: StoreLocation, agentId: string): Promise<StateStore> {
  return openStateStore({
    backend: location.config.state.backend,
    agentId,
    detourHome: location.detourHome,
    redis: location.config.state.redis,
    env: location.env,
    ...(location.secretKey !== undefined ? { secretKey: location.secretKey } : {}),
  });
}

async function checkOne(location: StoreLocation, agentId: string): Promise<DoctorCheck> {
  const name = `store ${agentId}`;
  let store: StateStore | undefined;
  try {
    store = await openAgentStore(location, agentId);
    // A Redis store opens even when Redis is down (it would serve from local state): ask it (R-SB-5).
    await store.checkAvailable();
    const integrity = integrityOf(store);
    if (integrity !== undefined && integrity !== "ok") {
      return { name, status: "problem", detail: `integrity check failed: ${integrity.slice(0, 300)}` };
    }
    // Reading every profile proves the secrets decrypt with the current key.
    const profiles = await store.listProfiles();
    const sessions = await store.listSessions();
    const integrityText = integrity === undefined ? "reachable" : "integrity ok";
    return { name, status: "ok", detail: `${integrityText}; ${profiles.length} profile(s), ${sessions.length} session(s)` };
  } catch (error) {
    return { name, status: "problem", detail: describeError(error) };
  } finally {
    await store?.close().catch(() => undefined);
  }
}

export async function checkStores(location: StoreLocation): Promise<DoctorCheck[]> {
  const backend = location.config.state.backend;
  if (backend === "memory") return [{ name: "stores", status: "skipped", detail: 'state.backend is "memory": nothing is kept' }];
  const agentIds =
    backend === "sqlite"
      ? existingSqliteAgents(location.detourHome)
      : ["main", ...location.config.agents.list.map((agent) => agent.id)].filter((id, index, all) => all.indexOf(id) === index);
  if (agentIds.length === 0) return [{ name: "stores", status: "ok", detail: `no agent store under ${location.detourHome} yet` }];
  const checks: DoctorCheck[] = [];
  for (const agentId of agentIds) checks.push(await checkOne(location, agentId));
  return checks;
}
