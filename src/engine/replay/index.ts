/** What-if replay (R-OB-5) and drills (R-OB-6): the engine's replay of run traces against other configs. */
export { replayTraces, orderedRuns, configPricing, ReplayStalledError, type ReplayInput, type ReplayResult } from "./replay-engine.js";
export { summarizeRuns, addedWaitMs, type ReplayConfigReport } from "./replay-report.js";
export { UpstreamModel, type UpstreamBehaviour, type UpstreamCall } from "./upstream-model.js";
export { DRILLS, findDrill, drillTraces, type DrillDefinition, type DrillTarget } from "./drills.js";
export {
  runDrill,
  drillTarget,
  DrillTargetError,
  DRILL_START_MS,
  type DrillOutcome,
  type DrillAdvice,
  type DrillVerdict,
} from "./drill-run.js";
