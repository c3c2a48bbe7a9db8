/** R-PO-7 headroom: header readers, readings, assessment and ordering. */
export { HEADROOM_HEADER_ROWS, readHeadroom, readRow, type HeadroomHeaderRow, type ResetFormat } from "./header-readers.js";
export {
  MAX_HEADROOM_MODELS_PER_PROFILE,
  isFresh,
  mergeReadings,
  readingSlot,
  type HeadroomReading,
  type HeadroomStatus,
} from "./reading.js";
export {
  DEFAULT_HEADROOM_SETTINGS,
  applicableReadings,
  assessHeadroom,
  type HeadroomSettings,
  type HeadroomStrategy,
  type ProfileHeadroom,
} from "./assess.js";
export { chargeUnreportedRequest, type UnreportedRequest } from "./charge.js";
export { assessProfiles, moveNearlySpentLast, strategyKey, type HeadroomInput, type SteeredOrder } from "./steer.js";
