/**
 * R-AP-5: an OAuth credential whose access token expires within 5 minutes is refreshed before use, and the
 * new tokens are written back to the state store so every process sharing it sees them.
 *
 * Only one refresh per profile runs at a time:
 * - inside one process, concurrent callers share one in-flight promise;
 * - across processes sharing the store, the store's claim slot (`tryClaimProbe`) is the lease: the process
 *   that claims `oauth-refresh:<profileId>` refreshes, the others poll the store until the stored credential
 *   was refreshed, the refresh was rejected (the profile got disabled), or the lease ran out (then they claim
 *   it themselves). A lease outlives the refresh timeout, so a refresh never outlives its lease.
 *
 * Why both: refresh tokens are often single-use (rotated on every grant); two grants with the same refresh
 * token would make the loser's `invalid_grant` look like a revoked login.
 */
import type { OAuthEndpoint } from "../config/index.js";
import { FailoverError } from "../core/errors.js";
import type { OAuthCredential } from "../core/types.js";
import type { Clock } from "../ports/clock.js";
import { silentLogger, type Logger } from "../ports/events.js";
import type { StateStore } from "../ports/state-store.js";
import { raceAbort } from "../core/race-abort.js";
import { requestTokenRefresh } from "./oauth-token-request.js";

/** R-AP-5: refresh when the access token expires within this window. */
export const OAUTH_REFRESH_WINDOW_MS = 5 * 60_000;
export const DEFAULT_OAUTH_REFRESH_TIMEOUT_MS = 30_000;
/** Lease time beyond the refresh timeout: the write-back after a slow grant still happens under the lease. */
export const OAUTH_REFRESH_LEASE_MARGIN_MS = 5_000;
export const DEFAULT_OAUTH_REFRESH_POLL_MS = 250;

export function oauthRefreshLeaseKey(profileId: string): string {
  return `oauth-refresh:${profileId}`;
}

/** True when the credential must be refreshed before use: no access token, or one expiring within 5 minutes. */
export function needsRefresh(credential: OAuthCredential, now: number): boolean {
  if (!credential.access) return true;
  return credential.expires !== undefined && credential.expires - now <= OAUTH_REFRESH_WINDOW_MS;
}

/** Someone else refreshed since `seen` was read: a different access token that has not expired yet. */
function refreshedSince(stored: OAuthCredential, seen: OAuthCredential, now: number): boolean {
  return Boolean(stored.access) && stored.access !== seen.access && (stored.expires === undefined || stored.expires > now);
}

export interface OAuthRefresherOptions {
  store: StateStore;
  clock: Clock;
  /** Token URL and client id of a provider (built-in defaults or `models.providers.<id>.oauth`). */
  endpointFor(provider: string): OAuthEndpoint | undefined;
  logger?: Logger;
  refreshTimeoutMs?: number;
  pollIntervalMs?: number;
}

export class OAuthRefresher {
  readonly #store: StateStore;
  readonly #clock: Clock;
  readonly #endpointFor: (provider: string) => OAuthEndpoint | undefined;
  readonly #logger: Logger;
  readonly #refreshTimeoutMs: number;
  readonly #pollIntervalMs: number;
  readonly #inFlight = new Map<string, Promise<OAuthCredential>>();
  /** Profiles already warned about (no refresh endpoint), so the log is not flooded once per attempt. */
  readonly #warned = new Set<string>();

  constructor(options: OAuthRefresherOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#endpointFor = options.endpointFor;
    this.#logger = options.logger ?? silentLogger;
    this.#refreshTimeoutMs = options.refreshTimeoutMs ?? DEFAULT_OAUTH_REFRESH_TIMEOUT_MS;
    this.#pollIntervalMs = options.pollIntervalMs ?? DEFAULT_OAUTH_REFRESH_POLL_MS;
  }

  get leaseMs(): number {
    return this.#refreshTimeoutMs + OAUTH_REFRESH_LEASE_MARGIN_MS;
  }

  /**
   * The credential to use now: `credential` itself while it is fresh, else a refreshed one. `signal` ends this
   * caller's wait only; a refresh shared with other callers keeps running for them.
   */
  async ensureFresh(profileId: string, credential: OAuthCredential, signal?: AbortSignal): Promise<OAuthCredential> {
    if (!needsRefresh(credential, this.#clock.now())) return credential;
    if (!credential.refresh) {
      if (credential.access) return credential; // Nothing to refresh with: the upstream judges the token.
      throw new FailoverError(
        `Profile ${profileId} (${credential.provider}) has neither an access token nor a refresh token. ` +
          `Log in again and store the tokens with \`detour auth add ${credential.provider} --type oauth --key -\`.`,
        { reason: "auth_permanent", provider: credential.provider, profileId, code: "oauth_no_tokens" },
      );
    }
    const endpoint = this.#endpointFor(credential.provider);
    if (!endpoint) {
      this.#warnOnce(
        profileId,
        `Profile ${profileId} holds an OAuth credential near expiry, but provider ${credential.provider} has no ` +
          `token endpoint; set models.providers.${credential.provider}.oauth { tokenUrl, clientId } to refresh it.`,
      );
      return credential;
    }
    let shared = this.#inFlight.get(profileId);
    if (!shared) {
      shared = this.#refreshOnce(profileId, credential, endpoint).finally(() => this.#inFlight.delete(profileId));
      this.#inFlight.set(profileId, shared);
    }
    // This caller stops waiting when its signal aborts; the shared refresh goes on for the others.
    return signal ? raceAbort(shared, signal) : shared;
  }

  /** Runs in one caller per process; coordinates with other processes through the store's lease. */
  async #refreshOnce(profileId: string, seen: OAuthCredential, endpoint: OAuthEndpoint): Promise<OAuthCredential> {
    const key = oauthRefreshLeaseKey(profileId);
    const startedAt = this.#clock.now();
    // Long enough to outwait one lease held elsewhere and then run a refresh under our own.
    const giveUpAt = startedAt + 2 * this.leaseMs + this.#pollIntervalMs;
    for (;;) {
      const now = this.#clock.now();
      const stored = await this.#store.getProfile(profileId);
      const current = stored?.credential.type === "oauth" ? stored.credential : undefined;
      if (!current) {
        throw new FailoverError(`Profile ${profileId} was removed from the store while its OAuth token was due for refresh.`, {
          reason: "auth",
          provider: seen.provider,
          profileId,
          code: "oauth_profile_removed",
        });
      }
      if (!needsRefresh(current, now) || refreshedSince(current, seen, now)) return current;
      await this.#throwIfRejectedElsewhere(profileId, current, startedAt, now);
      if (await this.#store.tryClaimProbe(key, now, this.leaseMs)) {
        return this.#refreshAndStore(profileId, current, endpoint);
      }
      if (now >= giveUpAt) {
        throw new FailoverError(
          `Profile ${profileId} (${seen.provider}) waited ${now - startedAt} ms for another process to refresh its ` +
            `OAuth token; that process is stuck or gone. Detour will try again after a cooldown.`,
          { reason: "timeout", provider: seen.provider, profileId, code: "oauth_refresh_lease_wait" },
        );
      }
      const leaseEnds = ((await this.#store.getLastProbeAt(key)) ?? now) + this.leaseMs;
      await this.#clock.sleep(Math.max(1, Math.min(this.#pollIntervalMs, leaseEnds - now)));
    }
  }

  /**
   * The lease holder's rejection disables the profile (the runner records `auth_permanent`); a waiter that
   * sees that stops waiting instead of spending the same dead refresh token again.
   */
  async #throwIfRejectedElsewhere(profileId: string, current: OAuthCredential, startedAt: number, now: number): Promise<void> {
    const stats = await this.#store.getUsageStats(profileId);
    const rejected =
      stats?.disabledReason === "auth_permanent" &&
      (stats.disabledUntil ?? 0) > now &&
      (stats.lastFailureAt ?? Number.NEGATIVE_INFINITY) >= startedAt;
    if (!rejected) return;
    throw new FailoverError(
      `The OAuth refresh of profile ${profileId} (${current.provider}) was rejected in another process. ` +
        `Log in again and store the new tokens with \`detour auth add ${current.provider} --type oauth --key -\`.`,
      { reason: "auth_permanent", provider: current.provider, profileId, code: "oauth_refresh_rejected_elsewhere" },
    );
  }

  async #refreshAndStore(profileId: string, current: OAuthCredential, endpoint: OAuthEndpoint): Promise<OAuthCredential> {
    const tokens = await requestTokenRefresh({
      endpoint,
      refreshToken: current.refresh ?? "",
      provider: current.provider,
      profileId,
      clock: this.#clock,
      timeoutMs: this.#refreshTimeoutMs,
    });
    const { expires: _previousExpiry, ...rest } = current;
    const refreshed: OAuthCredential = {
      ...rest,
      access: tokens.access,
      // Endpoints that do not rotate refresh tokens keep the old one valid.
      refresh: tokens.refresh ?? current.refresh,
      ...(tokens.expiresInSeconds !== undefined ? { expires: this.#clock.now() + tokens.expiresInSeconds * 1000 } : {}),
    };
    // Request-path bookkeeping (R-SB-3): during a Redis outage the new tokens are kept locally and pushed
    // when it returns, rather than failing a request a healthy provider can serve.
    await this.#store.upsertProfile({ id: profileId, credential: refreshed }, { durability: "best-effort" });
    this.#logger.log("info", `Refreshed the OAuth token of profile ${profileId}`, {
      profileId,
      provider: current.provider,
      expires: refreshed.expires ?? null,
      refreshTokenRotated: tokens.refresh !== undefined,
    });
    return refreshed;
  }

  #warnOnce(profileId: string, message: string): void {
    if (this.#warned.has(profileId)) return;
    this.#warned.add(profileId);
    this.#logger.log("warn", message, { profileId });
  }
}
