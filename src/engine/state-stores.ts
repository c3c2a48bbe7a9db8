/**
 * The state-store entry points front ends may use directly (`detour doctor` opens a store to check it and
 * previews a legacy import): re-exported here so cli/ reaches state/ only through the engine (DESIGN §1).
 */
export { openStateStore } from "../state/open-store.js";
export { importLegacyOpenClaw, type LegacyImportReport } from "../state/legacy-import.js";
export { MemoryStateStore } from "../state/memory/memory-store.js";
export { SECRET_KEY_ENV, SECRET_KEY_FILE_NAME } from "../state/secrets.js";
export { redactUrl } from "../state/redis/outage.js";
export { sqliteStatePath } from "../state/sqlite/sqlite-file.js";
export { SecretKeyMissingError } from "../state/state-errors.js";
export { openTraceStore } from "../state/traces/open-trace-store.js";
