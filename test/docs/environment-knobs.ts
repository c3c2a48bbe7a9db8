/** Environment variables share the `DETOUR_` prefix with the error codes but are not error codes (R-CF-4). */
export const ENVIRONMENT_KNOBS: ReadonlySet<string> = new Set([
  "DETOUR_HOME",
  "DETOUR_CONFIG",
  "DETOUR_SECRET_KEY",
  "DETOUR_LOG_LEVEL",
  "DETOUR_FALLBACK_SKIP_TTL_MS",
  "DETOUR_SDK_RETRY_MAX_WAIT_SECONDS",
]);
