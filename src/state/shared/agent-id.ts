/** Agent ids, which every backend turns into a place: a directory (SQLite) or a key namespace (Redis). */
import { StateConfigError } from "../state-errors.js";

/** Agent ids become a directory name, so they must not be able to climb out of `agents/`. */
export function assertSafeAgentId(agentId: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(agentId) || agentId.includes("..")) {
    throw new StateConfigError(
      `Agent id "${agentId}" cannot name a state directory: use letters, digits, ".", "_" or "-" ` + `(starting with a letter or digit).`,
    );
  }
}
