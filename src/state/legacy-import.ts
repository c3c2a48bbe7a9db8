/**
 * Legacy import (R-AP-6), used by `detour doctor --fix --from <openclaw-dir>`: reads OpenClaw's
 * `credentials/oauth.json`, `agents/<id>/agent/auth-profiles.json`, `auth-state.json` and `auth.json`
 * strictly read-only and copies profiles, stored order, lastGood and usage stats into a Detour store.
 *
 * Idempotent: nothing already in the store is overwritten, so a second run imports nothing new. The report
 * names every item imported or skipped (and why), never a secret.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { isFailoverReason } from "../core/reasons.js";
import type { Credential, UsageStats } from "../core/types.js";
import type { StateStore } from "../ports/state-store.js";

export type LegacyItemKind = "profile" | "order" | "lastGood" | "usageStats";

export interface LegacyImportReport {
  sources: { path: string; found: boolean; error?: string }[];
  imported: { kind: LegacyItemKind; id: string; from: string }[];
  skipped: { kind: LegacyItemKind; id: string; from: string; why: string }[];
}

export interface LegacyImportOptions {
  /** The OpenClaw state directory (usually `~/.openclaw`). */
  openclawDir: string;
  /** Which OpenClaw agent to import from (default `main`). */
  agentId?: string;
  store: StateStore;
}

type JsonObject = Record<string, unknown>;

interface Candidate<T> {
  id: string;
  value: T;
  from: string;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

function finiteNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** Drops undefined fields so imported JSON has the same shape as what Detour writes itself. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/** One OpenClaw credential record as Detour's credential, or why it cannot be one. */
export function toCredential(raw: unknown, providerHint?: string): Credential | string {
  if (!isObject(raw)) return "not an object";
  const provider = text(raw.provider) ?? providerHint;
  if (!provider) return "no provider";
  const type = text(raw.type) ?? (raw.access !== undefined || raw.refresh !== undefined ? "oauth" : undefined);
  if (type === "api_key") {
    const key = text(raw.key) ?? text(raw.apiKey);
    return key ? { type, provider, key } : "api_key without a key";
  }
  if (type === "token") {
    const token = text(raw.token);
    return token ? compact<Credential>({ type, provider, token, expires: finiteNumber(raw.expires) }) : "token without a token";
  }
  if (type === "oauth") {
    const access = text(raw.access);
    const refresh = text(raw.refresh);
    if (!access && !refresh) return "oauth with neither access nor refresh token";
    return compact<Credential>({
      type,
      provider,
      access,
      refresh,
      expires: finiteNumber(raw.expires),
      email: text(raw.email),
      accountId: text(raw.accountId),
      projectId: text(raw.projectId),
      enterpriseUrl: text(raw.enterpriseUrl),
    });
  }
  return `unknown credential type ${JSON.stringify(raw.type)}`;
}

/** R-AP-1 ids: `provider:<email>` for OAuth logins with an email, else `provider:default`. */
function legacyProfileId(credential: Credential): string {
  const email = credential.type === "oauth" ? credential.email : undefined;
  return `${credential.provider}:${email ?? "default"}`;
}

const NUMBER_FIELDS = ["lastUsed", "errorCount", "lastFailureAt", "cooldownUntil", "disabledUntil", "blockedUntil"] as const;
const REASON_FIELDS = ["cooldownReason", "blockedReason"] as const;
const MODEL_FIELDS = ["cooldownModel", "blockedModel"] as const;

/** OpenClaw usage stats (R-AP-4 shape); unknown or malformed fields are left out. */
export function toUsageStats(raw: unknown): UsageStats | undefined {
  if (!isObject(raw)) return undefined;
  const stats: UsageStats = {};
  for (const field of NUMBER_FIELDS) {
    const value = finiteNumber(raw[field]);
    if (value !== undefined) stats[field] = value;
  }
  for (const field of REASON_FIELDS) {
    const value = raw[field];
    if (isFailoverReason(value)) stats[field] = value;
  }
  for (const field of MODEL_FIELDS) {
    const value = text(raw[field]);
    if (value !== undefined) stats[field] = value;
  }
  if (raw.disabledReason === "billing" || raw.disabledReason === "auth_permanent") {
    stats.disabledReason = raw.disabledReason;
  }
  if (isObject(raw.failureCounts)) {
    const counts: NonNullable<UsageStats["failureCounts"]> = {};
    for (const [reason, count] of Object.entries(raw.failureCounts)) {
      const value = finiteNumber(count);
      if (isFailoverReason(reason) && value !== undefined) counts[reason] = value;
    }
    stats.failureCounts = counts;
  }
  return Object.keys(stats).length > 0 ? stats : undefined;
}

async function readJson(path: string, report: LegacyImportReport): Promise<JsonObject | undefined> {
  let content: string;
  try {
    content = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      report.sources.push({ path, found: false });
      return undefined;
    }
    report.sources.push({ path, found: true, error: (error as Error).message });
    return undefined;
  }
  try {
    const parsed: unknown = JSON.parse(content);
    if (!isObject(parsed)) throw new Error("the file does not hold a JSON object");
    report.sources.push({ path, found: true });
    return parsed;
  } catch (error) {
    report.sources.push({ path, found: true, error: `not readable as JSON: ${(error as Error).message}` });
    return undefined;
  }
}

/** Collects what the files offer; the first source to offer an id wins (newest format first). */
class Offers {
  readonly profiles = new Map<string, Candidate<Credential>>();
  readonly orders = new Map<string, Candidate<string[]>>();
  readonly lastGood = new Map<string, Candidate<string>>();
  readonly stats = new Map<string, Candidate<UsageStats>>();

  constructor(private readonly report: LegacyImportReport) {}

  profile(id: string, raw: unknown, from: string, providerHint?: string): void {
    const credential = toCredential(raw, providerHint);
    if (typeof credential === "string") {
      this.report.skipped.push({ kind: "profile", id, from, why: credential });
    } else {
      const earlier = this.profiles.get(id);
      if (earlier) this.report.skipped.push({ kind: "profile", id, from, why: `superseded by the entry in ${earlier.from}` });
      else this.profiles.set(id, { id, value: credential, from });
    }
  }

  routing(file: JsonObject, from: string): void {
    if (isObject(file.order)) {
      for (const [provider, ids] of Object.entries(file.order)) {
        if (Array.isArray(ids) && !this.orders.has(provider)) {
          this.orders.set(provider, { id: provider, value: ids.filter((id): id is string => typeof id === "string"), from });
        }
      }
    }
    if (isObject(file.lastGood)) {
      for (const [provider, id] of Object.entries(file.lastGood)) {
        if (typeof id === "string" && !this.lastGood.has(provider)) this.lastGood.set(provider, { id: provider, value: id, from });
      }
    }
    if (isObject(file.usageStats)) {
      for (const [id, raw] of Object.entries(file.usageStats)) {
        const stats = toUsageStats(raw);
        if (stats && !this.stats.has(id)) this.stats.set(id, { id, value: stats, from });
      }
    }
  }
}

export async function importLegacyOpenClaw(options: LegacyImportOptions): Promise<LegacyImportReport> {
  const report: LegacyImportReport = { sources: [], imported: [], skipped: [] };
  const offers = new Offers(report);
  const agentDir = join(options.openclawDir, "agents", options.agentId ?? "main", "agent");

  const profilesPath = join(agentDir, "auth-profiles.json");
  const profilesFile = await readJson(profilesPath, report);
  if (profilesFile && isObject(profilesFile.profiles)) {
    for (const [id, raw] of Object.entries(profilesFile.profiles)) offers.profile(id, raw, profilesPath);
  }
  const statePath = join(agentDir, "auth-state.json");
  const stateFile = await readJson(statePath, report);
  // auth-state.json is where newer OpenClaw versions keep routing state; it wins over the copy that older
  // versions kept inside auth-profiles.json.
  if (stateFile) offers.routing(stateFile, statePath);
  if (profilesFile) offers.routing(profilesFile, profilesPath);

  const authPath = join(agentDir, "auth.json");
  const authFile = await readJson(authPath, report);
  for (const [provider, raw] of Object.entries(authFile ?? {})) {
    const credential = toCredential(raw, provider);
    offers.profile(typeof credential === "string" ? `${provider}:default` : legacyProfileId(credential), raw, authPath, provider);
  }
  const oauthPath = join(options.openclawDir, "credentials", "oauth.json");
  const oauthFile = await readJson(oauthPath, report);
  for (const [provider, raw] of Object.entries(oauthFile ?? {})) {
    const record = isObject(raw) ? { type: "oauth", ...raw } : raw;
    const credential = toCredential(record, provider);
    offers.profile(typeof credential === "string" ? `${provider}:default` : legacyProfileId(credential), record, oauthPath, provider);
  }

  await writeOffers(options.store, offers, report);
  return report;
}

async function writeOffers(store: StateStore, offers: Offers, report: LegacyImportReport): Promise<void> {
  for (const { id, value, from } of offers.profiles.values()) {
    const existing = await store.getProfile(id);
    if (!existing) {
      await store.upsertProfile({ id, credential: value });
      report.imported.push({ kind: "profile", id, from });
    } else {
      const same = JSON.stringify(compact(existing.credential)) === JSON.stringify(value);
      report.skipped.push({
        kind: "profile",
        id,
        from,
        why: same ? "already imported" : "Detour already has this profile with another credential (kept Detour's)",
      });
    }
  }
  const known = new Set((await store.listProfiles()).map((profile) => profile.id));
  for (const { id: provider, value, from } of offers.orders.values()) {
    if ((await store.getStoredOrder(provider)) !== undefined) {
      report.skipped.push({ kind: "order", id: provider, from, why: "Detour already has a stored order for this provider" });
      continue;
    }
    const order = value.filter((id) => known.has(id));
    if (order.length === 0) {
      report.skipped.push({ kind: "order", id: provider, from, why: "none of its profiles exist" });
      continue;
    }
    await store.setStoredOrder(provider, order);
    report.imported.push({ kind: "order", id: provider, from });
  }
  for (const { id: provider, value, from } of offers.lastGood.values()) {
    if ((await store.getLastGood(provider)) !== undefined) {
      report.skipped.push({ kind: "lastGood", id: provider, from, why: "Detour already has a lastGood for this provider" });
    } else {
      await store.setLastGood(provider, value);
      report.imported.push({ kind: "lastGood", id: provider, from });
    }
  }
  for (const { id, value, from } of offers.stats.values()) {
    if ((await store.getUsageStats(id)) !== undefined) {
      report.skipped.push({ kind: "usageStats", id, from, why: "Detour already has usage stats for this profile" });
    } else {
      await store.replaceUsageStats(id, value);
      report.imported.push({ kind: "usageStats", id, from });
    }
  }
}
