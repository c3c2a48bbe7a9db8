/**
 * What `detour auth add | list | remove | order set | reset` do: credentials in the agent's state store
 * (R-AP-1..3) and the R-CD-8 reset. Secrets go in through `--key -` (stdin) and come out only as
 * fingerprints (R-OB-2).
 */
import type { Command } from "commander";
import { BUILT_IN_PROVIDERS, knownProviderIds, unknownProviderMessage, type DetourConfig } from "../../config/index.js";
import type { Credential, CredentialType } from "../../core/types.js";
import type { ProfileStatus } from "../../engine/index.js";
import type { CliDeps } from "../cli-deps.js";
import { commandContext, withDetour } from "../command-context.js";
import { credentialFingerprint, secretFingerprint } from "../fingerprint.js";
import { CliUsageError } from "../output.js";
import { formatTimestamp, profileStateText } from "../views/profile-view.js";
import { readSecretArgument } from "../read-secret.js";

const PROVIDER_ID = /^[a-z0-9][a-z0-9._-]*$/i;

export interface AgentFlags {
  agent: string;
  json?: boolean;
}

export interface AddFlags extends AgentFlags {
  key: string;
  /** Replace a profile that already exists (without it, `auth add` refuses: exit 2). */
  force?: boolean;
  type: CredentialType;
  id?: string;
  email?: string;
}

function requireProvider(provider: string): string {
  if (!PROVIDER_ID.test(provider)) {
    throw new CliUsageError(`Invalid provider "${provider}": use a provider id such as openai, anthropic or openrouter.`);
  }
  return provider;
}

/** The environment variable the config names as this profile's key (R-AP-2), if any. */
function keyRefOf(config: DetourConfig, profileId: string): string | undefined {
  const profile = Object.hasOwn(config.auth.profiles, profileId) ? config.auth.profiles[profileId] : undefined;
  return profile?.keyRef?.env;
}

function providerIsKnown(config: DetourConfig, provider: string): boolean {
  return Object.hasOwn(BUILT_IN_PROVIDERS, provider) || Object.hasOwn(config.models.providers, provider);
}

/** `provider:name`, the name part non-empty (R-AP-1 profile ids). */
function requireProfileId(id: string, provider?: string): string {
  const separator = id.indexOf(":");
  if (separator <= 0 || separator === id.length - 1) {
    throw new CliUsageError(`Invalid profile id "${id}": expected "provider:name", e.g. "openai:work".`);
  }
  if (provider !== undefined && id.slice(0, separator) !== provider) {
    throw new CliUsageError(`Profile id "${id}" does not belong to provider "${provider}": use "${provider}:<name>".`);
  }
  return id;
}

/** An OpenAI / Anthropic API key pasted as `--type oauth` would be refreshed against the vendor on every request. */
const API_KEY_SHAPE = /^sk-(?!ant-ort)/;
const OAUTH_FIELDS: ReadonlySet<string> = new Set(["access", "refresh", "expires", "email", "accountId", "projectId", "type", "provider"]);

function parseOAuthSecret(secret: string, provider: string, email: string | undefined): Credential {
  const trimmed = secret.trim();
  if (!trimmed.startsWith("{")) {
    if (trimmed === "" || /\s/.test(trimmed)) throw new CliUsageError("--type oauth: the refresh token is empty or contains spaces.");
    if (API_KEY_SHAPE.test(trimmed)) {
      throw new CliUsageError("--type oauth: this looks like an API key, not a refresh token; store it with --type api_key.");
    }
    return { type: "oauth", provider, refresh: trimmed, ...(email ? { email } : {}) };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    throw new CliUsageError("--type oauth: the key is neither a refresh token nor valid JSON ({ access, refresh, expires, email }).");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new CliUsageError("--type oauth: the JSON must be an object { access, refresh, expires, email }.");
  }
  const value = parsed as Record<string, unknown>;
  const unknown = Object.keys(value).filter((field) => !OAUTH_FIELDS.has(field));
  if (unknown.length > 0) {
    throw new CliUsageError(
      `--type oauth: unexpected field(s) ${unknown.join(", ")}; an OAuth login has access, refresh, expires and email.`,
    );
  }
  for (const field of ["access", "refresh", "email"]) {
    if (value[field] !== undefined && typeof value[field] !== "string")
      throw new CliUsageError(`--type oauth: \`${field}\` must be a string.`);
  }
  const text = (field: string) => (typeof value[field] === "string" && value[field] !== "" ? (value[field] as string) : undefined);
  const access = text("access");
  const refresh = text("refresh");
  if (!access && !refresh) throw new CliUsageError("--type oauth: the JSON needs an access or a refresh token.");
  const expires = value.expires;
  if (expires !== undefined && (typeof expires !== "number" || !Number.isFinite(expires) || expires < 0)) {
    throw new CliUsageError("--type oauth: `expires` must be epoch milliseconds.");
  }
  if (access && !refresh && expires === undefined) {
    // Without a refresh token and an expiry nobody can tell when the access token stops working.
    throw new CliUsageError("--type oauth: an access token without a refresh token needs `expires` (epoch milliseconds).");
  }
  const credentialEmail = email ?? text("email");
  const accountId = text("accountId");
  const projectId = text("projectId");
  return {
    type: "oauth",
    provider,
    ...(access ? { access } : {}),
    ...(refresh ? { refresh } : {}),
    ...(typeof expires === "number" ? { expires } : {}),
    ...(credentialEmail ? { email: credentialEmail } : {}),
    ...(accountId ? { accountId } : {}),
    ...(projectId ? { projectId } : {}),
  };
}

function buildCredential(type: CredentialType, provider: string, secret: string, email: string | undefined): Credential {
  switch (type) {
    case "api_key":
      return { type, provider, key: secret.trim() };
    case "token":
      return { type, provider, token: secret.trim() };
    case "oauth":
      return parseOAuthSecret(secret, provider, email);
  }
}

/** R-AP-1: `provider:default`, or `provider:<email>` for an OAuth login with an email. */
function defaultProfileId(credential: Credential): string {
  const email = credential.type === "oauth" ? credential.email : undefined;
  return `${credential.provider}:${email ?? "default"}`;
}

function knownProfile(agentId: string, profileId: string, statuses: readonly ProfileStatus[]): ProfileStatus {
  const found = statuses.find((profile) => profile.id === profileId);
  if (!found) {
    const known = statuses.map((profile) => profile.id);
    throw new CliUsageError(
      `No profile "${profileId}" in agent "${agentId}" (known: ${known.length > 0 ? known.join(", ") : "none"}). ` +
        "See `detour auth list`.",
    );
  }
  return found;
}

export async function addProfile(deps: CliDeps, command: Command, provider: string, options: AddFlags): Promise<void> {
  const context = commandContext(deps, command);
  requireProvider(provider);
  if (options.id !== undefined) requireProfileId(options.id, provider);
  const secret = await readSecretArgument(options.key, deps.stdin);
  if (options.key !== "-") {
    context.out.error(
      "detour: warning: a key typed on the command line stays in your shell history and shows in the process " +
        "list; next time pipe it in with `--key -`.",
    );
  }
  const credential = buildCredential(options.type, provider, secret, options.email);
  const profileId = options.id ?? defaultProfileId(credential);
  await withDetour(context, {}, async ({ detour, config, configFile }) => {
    if (!providerIsKnown(config, provider)) {
      // A profile of a provider nobody serves would be stored and never used.
      throw new CliUsageError(`${unknownProviderMessage(provider, knownProviderIds(config))}. Nothing was stored.`);
    }
    const keyRef = keyRefOf(config, profileId);
    if (keyRef !== undefined && !options.force) {
      throw new CliUsageError(
        `Profile ${profileId} takes its key from $${keyRef} (auth.profiles["${profileId}"].keyRef in ${configFile ?? "the config"}); ` +
          `a stored key would not be used while $${keyRef} is set. Nothing was stored. Put the new key in $${keyRef}, store it ` +
          `under another id (--id ${provider}:<name>), or pass --force to store it as the key used only when $${keyRef} is unset.`,
      );
    }
    const store = await detour.store(options.agent);
    const existing = await store.getProfile(profileId);
    const replaced = existing !== undefined;
    if (replaced && !options.force) {
      throw new CliUsageError(
        `Profile ${profileId} already exists in agent ${options.agent} (${existing.credential.type}, ` +
          `${credentialFingerprint(existing.credential) ?? "no secret"}); nothing was changed. Pass --force to replace it, ` +
          "or choose another id with --id <provider>:<name>.",
      );
    }
    await store.upsertProfile({ id: profileId, credential });
    const fingerprint = credentialFingerprint(credential);
    if (options.json) {
      context.out.json({
        profileId,
        provider,
        type: credential.type,
        fingerprint,
        agentId: options.agent,
        replaced,
        ...(keyRef !== undefined ? { keyRefEnv: keyRef, usedWhileEnvSet: false } : {}),
      });
      return;
    }
    context.out.line(
      `${replaced ? "Replaced" : "Stored"} ${profileId} (${credential.type}, ${fingerprint ?? "no secret"}) for agent ${options.agent}.`,
    );
    if (keyRef !== undefined) {
      const inUse = deps.env[keyRef]?.trim()
        ? `$${keyRef} is set here, so its key is the one used`
        : `$${keyRef} is not set here, so this stored key is used`;
      context.out.line(`Note: ${profileId} takes its key from $${keyRef} whenever that variable is set; ${inUse}.`);
    }
  });
}

export async function listProfiles(deps: CliDeps, command: Command, options: AgentFlags & { provider?: string }): Promise<void> {
  const context = commandContext(deps, command);
  await withDetour(context, { discoverEnvCredentials: true, readOnly: true }, async ({ detour, config }) => {
    const store = await detour.store(options.agent);
    const [statuses, stored] = await Promise.all([
      detour.profiles.list({ agentId: options.agent, ...(options.provider ? { provider: options.provider } : {}) }),
      store.listProfiles(),
    ]);
    const fingerprints = new Map(stored.map((profile) => [profile.id, credentialFingerprint(profile.credential)]));
    // An env-backed profile shows the fingerprint of the key actually used: its variable's, while it is set.
    for (const profile of statuses) {
      const variable = profile.origin === "env" ? keyRefOf(config, profile.id) : undefined;
      const value = variable !== undefined ? deps.env[variable]?.trim() : undefined;
      if (value) fingerprints.set(profile.id, secretFingerprint(value));
    }
    const now = Date.now();
    const rows = statuses.map((profile) => ({
      id: profile.id,
      provider: profile.provider ?? null,
      type: profile.type ?? null,
      origin: profile.origin,
      fingerprint: fingerprints.get(profile.id) ?? null,
      email: profile.email ?? null,
      usable: profile.usable,
      state: profileStateText(profile, now),
      unusableUntil: profile.unusableUntil ?? null,
      lastUsed: profile.stats.lastUsed ?? null,
      lastGood: profile.lastGood,
    }));
    if (options.json) {
      context.out.json({ agentId: options.agent, profiles: rows });
      return;
    }
    if (rows.length === 0) {
      context.out.line(`No profiles for agent ${options.agent}. Add one with \`detour auth add <provider> --key -\`.`);
      return;
    }
    context.out.table(
      ["profile", "type", "origin", "fingerprint", "state", "last used"],
      rows.map((row) => [
        row.lastGood ? `${row.id} *` : row.id,
        row.type,
        row.origin,
        row.fingerprint,
        row.state,
        formatTimestamp(row.lastUsed ?? undefined, now),
      ]),
    );
    if (rows.some((row) => row.lastGood)) context.out.line("* last good profile of its provider");
  });
}

export async function removeProfile(deps: CliDeps, command: Command, profileId: string, options: AgentFlags): Promise<void> {
  const context = commandContext(deps, command);
  requireProfileId(profileId);
  await withDetour(context, {}, async ({ detour }) => {
    const store = await detour.store(options.agent);
    const removed = await store.removeProfile(profileId);
    if (!removed) {
      const known = (await store.listProfiles()).map((profile) => profile.id);
      throw new CliUsageError(
        `No stored profile "${profileId}" in agent "${options.agent}" (stored: ${known.length > 0 ? known.join(", ") : "none"}).`,
      );
    }
    if (options.json) context.out.json({ profileId, agentId: options.agent, removed: true });
    else context.out.line(`Removed ${profileId} from agent ${options.agent}.`);
  });
}

export async function setOrder(
  deps: CliDeps,
  command: Command,
  provider: string,
  profileIds: readonly string[],
  options: AgentFlags & { clear?: boolean },
): Promise<void> {
  const context = commandContext(deps, command);
  requireProvider(provider);
  if (options.clear && profileIds.length > 0) throw new CliUsageError("Pass either profile ids or --clear, not both.");
  if (!options.clear && profileIds.length === 0) throw new CliUsageError(`Name the profiles of ${provider} in order, or pass --clear.`);
  for (const id of profileIds) requireProfileId(id, provider);
  const duplicate = profileIds.find((id, index) => profileIds.indexOf(id) !== index);
  if (duplicate !== undefined) throw new CliUsageError(`Profile ${duplicate} is listed twice.`);
  await withDetour(context, { discoverEnvCredentials: true }, async ({ detour }) => {
    const statuses = await detour.profiles.list({ agentId: options.agent, provider });
    for (const id of profileIds) knownProfile(options.agent, id, statuses);
    const store = await detour.store(options.agent);
    await store.setStoredOrder(provider, options.clear ? undefined : [...profileIds]);
    if (options.json) context.out.json({ provider, agentId: options.agent, order: options.clear ? null : profileIds });
    else context.out.line(options.clear ? `Cleared the stored order of ${provider}.` : `Order of ${provider}: ${profileIds.join(" → ")}`);
  });
}

/** Where a provider's profile order comes from (R-AP-3): stored wins over auth.order; without either, round robin. */
type OrderSource = "stored" | "config" | "none";

const ORDER_SOURCE_WORDS: Readonly<Record<OrderSource, string>> = {
  stored: "stored with `detour auth order set`",
  config: "auth.order in the config",
  none: "no order set: profiles are tried round robin",
};

export async function showOrder(deps: CliDeps, command: Command, provider: string | undefined, options: AgentFlags): Promise<void> {
  const context = commandContext(deps, command);
  if (provider !== undefined) requireProvider(provider);
  await withDetour(context, { discoverEnvCredentials: true, readOnly: true }, async ({ detour, config }) => {
    const store = await detour.store(options.agent);
    const statuses = await detour.profiles.list({ agentId: options.agent });
    const providers =
      provider !== undefined
        ? [provider]
        : [
            ...new Set([...statuses.flatMap((profile) => (profile.provider ? [profile.provider] : [])), ...Object.keys(config.auth.order)]),
          ].sort();
    const orders: { provider: string; profiles: string[] | null; source: OrderSource }[] = [];
    for (const id of providers) {
      const stored = await store.getStoredOrder(id);
      const configured = Object.hasOwn(config.auth.order, id) ? config.auth.order[id] : undefined;
      if (stored !== undefined) orders.push({ provider: id, profiles: stored, source: "stored" });
      else if (configured !== undefined) orders.push({ provider: id, profiles: [...configured], source: "config" });
      else orders.push({ provider: id, profiles: null, source: "none" });
    }
    if (options.json) {
      context.out.json({ agentId: options.agent, orders });
      return;
    }
    if (orders.length === 0) {
      context.out.line(`No profiles and no order for agent ${options.agent}. Add a profile with \`detour auth add <provider> --key -\`.`);
      return;
    }
    for (const order of orders) {
      const list = order.profiles === null ? "-" : order.profiles.join(" → ");
      context.out.line(`${order.provider}: ${list}  ${context.out.colors.dim(`(${ORDER_SOURCE_WORDS[order.source]})`)}`);
    }
  });
}

export async function resetProfile(deps: CliDeps, command: Command, profileId: string, options: AgentFlags): Promise<void> {
  const context = commandContext(deps, command);
  requireProfileId(profileId);
  await withDetour(context, { discoverEnvCredentials: true }, async ({ detour }) => {
    const statuses = await detour.profiles.list({ agentId: options.agent });
    const before = knownProfile(options.agent, profileId, statuses);
    await detour.profiles.reset(profileId, { agentId: options.agent });
    if (options.json) {
      context.out.json({ profileId, agentId: options.agent, reset: true, wasUsable: before.usable });
      return;
    }
    context.out.line(
      before.usable
        ? `Reset ${profileId}: counters cleared (it had no active window).`
        : `Reset ${profileId}: ${profileStateText(before, Date.now())} cleared; it is usable now.`,
    );
  });
}
