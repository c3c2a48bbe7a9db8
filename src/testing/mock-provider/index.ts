/** The fault-injecting mock provider (R-CL-3); see docs/mock-provider.md. */
export {
  startMockProvider,
  extractApiKey,
  type MockKeyConcurrency,
  type MockProvider,
  type MockProviderOptions,
  type MockScenarioSelection,
} from "./mock-server.js";
export {
  MOCK_ERROR_PRESETS,
  MOCK_RULE_APIS,
  MOCK_WIRE_APIS,
  mockRuleSchema,
  mockScenarioCollectionSchema,
  mockScenarioFileSchema,
  mockScenarioSchema,
  mockStepSchema,
  type MockErrorPreset,
  type MockRule,
  type MockRuleInput,
  type MockScenario,
  type MockScenarioInput,
  type MockStep,
  type MockStepInput,
  type MockKeyedWireApi,
  type MockWireApi,
} from "./scenario-schema.js";
export { BUILTIN_SCENARIOS, BUILTIN_SCENARIO_NAMES, MID_STREAM_CUT_ANSWER } from "./builtin-scenarios.js";
export {
  MockScenarioError,
  loadScenarioFile,
  parseScenarioFile,
  resolveScenarioArgument,
  resolveScenarioName,
  type MockScenarioSet,
} from "./scenario-file.js";
export { MockProviderPortInUseError } from "./mock-errors.js";
export { NO_KEY, type MockCounts, type RecordedRequest } from "./request-log.js";
export { fingerprintKey } from "./reply.js";
export { ERROR_PRESET_TABLE } from "./error-presets.js";
export {
  MOCK_BUDGET_HEADER_STYLES,
  MOCK_SUBSCRIPTION_HEADER_STYLES,
  mockBudgetSchema,
  mockBudgetsSchema,
  type MockBudget,
  type MockBudgets,
  type MockBudgetsInput,
} from "./budget-schema.js";
export type { BudgetKeyState, BudgetWindowState } from "./budget-book.js";
