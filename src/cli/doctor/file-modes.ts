/**
 * R-SB-4: the state directory and its files hold secrets, so directories must be 0700 and files 0600 (no
 * group or other access). Checked before any store is opened, because opening a store tightens its own file
 * and would hide the finding. `--fix` chmods; without it, each loose path is reported.
 */
import { chmodSync, existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { DoctorCheck } from "./doctor-check.js";

const PRIVATE_DIRECTORY_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

interface PrivatePath {
  path: string;
  mode: number;
}

/** `$DETOUR_HOME`, the key file, every agent directory and every SQLite file (with -wal/-shm). */
export function privatePaths(detourHome: string): PrivatePath[] {
  if (!existsSync(detourHome)) return [];
  const paths: PrivatePath[] = [{ path: detourHome, mode: PRIVATE_DIRECTORY_MODE }];
  const keyFile = join(detourHome, "secret.key");
  if (existsSync(keyFile)) paths.push({ path: keyFile, mode: PRIVATE_FILE_MODE });
  const agentsDir = join(detourHome, "agents");
  if (!existsSync(agentsDir)) return paths;
  paths.push({ path: agentsDir, mode: PRIVATE_DIRECTORY_MODE });
  for (const agentId of readdirSync(agentsDir)) {
    const agentDir = join(agentsDir, agentId);
    if (!statSync(agentDir).isDirectory()) continue;
    paths.push({ path: agentDir, mode: PRIVATE_DIRECTORY_MODE });
    const storeDir = join(agentDir, "agent");
    if (!existsSync(storeDir)) continue;
    paths.push({ path: storeDir, mode: PRIVATE_DIRECTORY_MODE });
    for (const name of readdirSync(storeDir)) {
      if (/\.sqlite(-wal|-shm)?$/.test(name)) paths.push({ path: join(storeDir, name), mode: PRIVATE_FILE_MODE });
    }
  }
  return paths;
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}

export function checkFileModes(detourHome: string, fix: boolean): DoctorCheck[] {
  // Windows has no POSIX modes; the check would only produce noise there.
  if (process.platform === "win32") return [{ name: "file modes", status: "skipped", detail: "not applicable on Windows" }];
  const paths = privatePaths(detourHome);
  if (paths.length === 0) return [{ name: "file modes", status: "ok", detail: `${detourHome} does not exist yet` }];
  const loose = paths.filter(({ path }) => (statSync(path).mode & 0o077) !== 0);
  if (loose.length === 0) return [{ name: "file modes", status: "ok", detail: `${paths.length} path(s) private (0700/0600)` }];
  return loose.map(({ path, mode }) => {
    const current = octal(statSync(path).mode);
    if (!fix)
      return { name: "file modes", status: "problem", path, detail: `${path} is ${current}, expected ${octal(mode)} (run with --fix)` };
    chmodSync(path, mode);
    return { name: "file modes", status: "fixed", path, detail: `${path}: ${current} → ${octal(mode)}` };
  });
}

/**
 * Opening a store tightens its own file and key file (R-SB-4), so a loose mode reported before the store
 * check may be gone after it. Reports those honestly as fixed instead of leaving a stale problem.
 */
export function recheckFileModes(checks: readonly DoctorCheck[]): DoctorCheck[] {
  return checks.map((check) => {
    if (check.name !== "file modes" || check.status !== "problem" || check.path === undefined || !existsSync(check.path)) return check;
    if ((statSync(check.path).mode & 0o077) !== 0) return check;
    return {
      ...check,
      status: "fixed",
      detail: `${check.path} is now ${octal(statSync(check.path).mode)} (tightened when its store was opened)`,
    };
  });
}
