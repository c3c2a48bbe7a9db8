/**
 * Every stable error code Detour raises, in one table: the codes are a contract (docs/errors.md lists each,
 * checked by a test), so no other file spells one out; they reference this table instead.
 */
export const ERROR_CODES = {
  // The decision plane: failover, selection, seats.
  failover: "DETOUR_FAILOVER",
  fallbackSummary: "DETOUR_ALL_MODELS_FAILED",
  liveSessionModelSwitch: "DETOUR_LIVE_MODEL_SWITCH",
  config: "DETOUR_CONFIG_INVALID",
  modelSelection: "DETOUR_MODEL_SELECTION_INVALID",
  seatsFull: "DETOUR_SEATS_FULL",
  // The library API.
  invalidArgument: "DETOUR_INVALID_ARGUMENT",
  closed: "DETOUR_CLOSED",
  noCredentials: "DETOUR_NO_CREDENTIALS",
  unknownProvider: "DETOUR_UNKNOWN_PROVIDER",
  aiSdkCandidatesInvalid: "DETOUR_AI_SDK_CANDIDATES_INVALID",
  // The state layer.
  secretKeyInvalid: "DETOUR_SECRET_KEY_INVALID",
  secretKeyMismatch: "DETOUR_SECRET_KEY_MISMATCH",
  secretKeyMissing: "DETOUR_SECRET_KEY_MISSING",
  secretKeyNotShared: "DETOUR_SECRET_KEY_NOT_SHARED",
  schemaTooNew: "DETOUR_STATE_SCHEMA_TOO_NEW",
  stateConfig: "DETOUR_STATE_CONFIG_INVALID",
  storeUnavailable: "DETOUR_STORE_UNAVAILABLE",
  // The gateway: starting it.
  gatewayCannotBind: "DETOUR_GATEWAY_CANNOT_BIND",
  gatewayUnsafeBind: "DETOUR_GATEWAY_UNSAFE_BIND",
  gatewayPortInUse: "DETOUR_GATEWAY_PORT_IN_USE",
  // The gateway: answering a request.
  badRequest: "DETOUR_BAD_REQUEST",
  badRouting: "DETOUR_BAD_ROUTING",
  bodyTooLarge: "DETOUR_BODY_TOO_LARGE",
  unsupportedMediaType: "DETOUR_UNSUPPORTED_MEDIA_TYPE",
  unauthorized: "DETOUR_UNAUTHORIZED",
  notFound: "DETOUR_NOT_FOUND",
  hostNotAllowed: "DETOUR_HOST_NOT_ALLOWED",
  originNotAllowed: "DETOUR_ORIGIN_NOT_ALLOWED",
  unknownProfile: "DETOUR_UNKNOWN_PROFILE",
  responseStateUnavailable: "DETOUR_RESPONSE_STATE_UNAVAILABLE",
  responseStateUnroutable: "DETOUR_RESPONSE_STATE_UNROUTABLE",
  internal: "DETOUR_INTERNAL",
  // The CLI and the tools it serves.
  cliBadInput: "DETOUR_CLI_BAD_INPUT",
  cliReportedFailure: "DETOUR_CLI_REPORTED_FAILURE",
  catalogueFetchFailed: "DETOUR_CATALOGUE_FETCH_FAILED",
  mockScenarioInvalid: "DETOUR_MOCK_SCENARIO_INVALID",
  mockPortInUse: "DETOUR_MOCK_PORT_IN_USE",
  // Replays and drills.
  traceLineInvalid: "DETOUR_TRACE_LINE_INVALID",
  drillNoPrimary: "DETOUR_DRILL_NO_PRIMARY",
  replayStalled: "DETOUR_REPLAY_STALLED",
} as const;

export type DetourErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
