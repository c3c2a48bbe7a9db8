/**
 * Hot reload for `detour gateway`: SIGHUP or a change to the loaded config file (debounced)
 * loads the config again. An invalid config is refused with one `error` line per invalid path and the running
 * one keeps serving; a valid one gets a new Detour and runner for the requests that arrive from then on, the
 * cron jobs restart with the new `cron.jobs`, and the previous Detour is closed once the requests in flight
 * on it have finished. Stores belong to the first Detour for the whole process: the new engines share its
 * cooldowns, pins and sessions, so `state` is a restart-only setting like `gateway.host`.
 */
import { watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import { loadConfig, type DetourConfig } from "../config/index.js";
import type { DetourEngine } from "../engine/index.js";
import type { RunningGateway } from "../gateway/start-gateway.js";
import type { Logger } from "../ports/events.js";
import { describeError } from "./cli-errors.js";
import { startCronJobs, type CronJobsHandle } from "./cron-jobs.js";

/** Editors write a file in several steps (truncate, write, rename): one reload per burst. */
export const CONFIG_WATCH_DEBOUNCE_MS = 250;

export interface GatewayReloaderOptions {
  running: Pick<RunningGateway, "reloadEngine">;
  /** The Detour the gateway started with: it owns the stores and stays open until `close()`. */
  baseDetour: DetourEngine;
  config: DetourConfig;
  cron: CronJobsHandle;
  /** The loaded config file; absent when none was found (SIGHUP still looks it up again). */
  configFile?: string;
  /** How the config was found at start-up (`--config`), for a reload without a file. */
  configPath?: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  logger: Logger;
  debounceMs?: number;
}

interface ConfigProblem {
  path: string;
  message: string;
}

function problemsOf(error: unknown): ConfigProblem[] {
  const issues = (error as { issues?: unknown }).issues;
  if (Array.isArray(issues) && issues.length > 0) {
    return issues.map((issue: { path?: unknown; message?: unknown }) => ({
      path: typeof issue.path === "string" && issue.path !== "" ? issue.path : "(root)",
      message: String(issue.message),
    }));
  }
  return [{ path: "(config)", message: describeError(error) }];
}

export class GatewayReloader {
  readonly #options: GatewayReloaderOptions;
  #config: DetourConfig;
  #cron: CronJobsHandle;
  #chain: Promise<void> = Promise.resolve();
  #queued = false;
  #closed = false;
  #watcher: FSWatcher | undefined;
  #debounce: ReturnType<typeof setTimeout> | undefined;
  /** Engines replaced by a reload, closed once drained; awaited by `close()`. */
  readonly #retiring = new Set<Promise<void>>();
  #current: DetourEngine;

  constructor(options: GatewayReloaderOptions) {
    this.#options = options;
    this.#config = options.config;
    this.#cron = options.cron;
    this.#current = options.baseDetour;
  }

  get cron(): CronJobsHandle {
    return this.#cron;
  }

  /** Watches the config file's directory (an editor's atomic save replaces the file, which a watch on the file would lose). */
  watchConfigFile(): void {
    const file = this.#options.configFile;
    if (file === undefined || this.#watcher) return;
    const name = basename(file);
    try {
      this.#watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
        if (changed !== null && changed.toString() !== name) return;
        clearTimeout(this.#debounce);
        this.#debounce = setTimeout(() => void this.reload("file"), this.#options.debounceMs ?? CONFIG_WATCH_DEBOUNCE_MS);
      });
      this.#watcher.on("error", (error) => {
        this.#options.logger.log("warn", `Stopped watching ${file} for changes: ${error.message}; SIGHUP still reloads the config`, {
          event: "config_watch_failed",
        });
      });
    } catch (error) {
      this.#options.logger.log("warn", `Cannot watch ${file} for changes: ${describeError(error)}; SIGHUP still reloads the config`, {
        event: "config_watch_failed",
      });
    }
  }

  /** Reloads once; reloads asked for while one runs collapse into one more. */
  reload(trigger: "file" | "signal"): Promise<void> {
    if (this.#closed || this.#queued) return this.#chain;
    this.#queued = true;
    this.#chain = this.#chain.then(async () => {
      this.#queued = false;
      if (!this.#closed) await this.#reloadNow(trigger);
    });
    return this.#chain;
  }

  async #reloadNow(trigger: "file" | "signal"): Promise<void> {
    const { logger } = this.#options;
    let next: DetourConfig;
    try {
      const loaded = await loadConfig({
        ...(this.#options.configFile !== undefined
          ? { configPath: this.#options.configFile }
          : this.#options.configPath !== undefined
            ? { configPath: this.#options.configPath }
            : {}),
        env: this.#options.env,
        cwd: this.#options.cwd,
      });
      for (const warning of loaded.warnings) logger.log("warn", warning, { event: "config_warning" });
      next = loaded.config;
    } catch (error) {
      const problems = problemsOf(error);
      for (const problem of problems) {
        logger.log("error", `Config reload refused: ${problem.path}: ${problem.message}`, {
          event: "config_reload_invalid",
          path: problem.path,
        });
      }
      logger.log("error", `The new config has ${problems.length} problem(s); the running config keeps serving. Fix them and save again.`, {
        event: "config_reload_failed",
        trigger,
      });
      return;
    }
    if (JSON.stringify(next.state) !== JSON.stringify(this.#config.state)) {
      logger.log("warn", "state changed in the config; it takes effect only after a restart (the running value is kept)", {
        event: "config_reload_needs_restart",
        path: "state",
      });
      next = { ...next, state: this.#config.state };
    }

    const base = this.#options.baseDetour;
    let detour: DetourEngine | undefined;
    try {
      // The engine for the new config shares the base engine's stores, environment, logger and discovery.
      detour = await base.reload(next);
      const previous = this.#current;
      const drained = this.#options.running.reloadEngine({ detour, config: next });
      // reloadEngine swaps before it returns; a refusal (an unsafe binding, R-GW-5) throws before anything changed.
      this.#current = detour;
      this.#config = next;
      const oldCron = this.#cron;
      const cronDone = oldCron.stop({ finishRuns: true });
      this.#cron = startCronJobs(next.cron.jobs, detour.run, logger);
      logger.log("info", `Config reloaded (${trigger === "signal" ? "SIGHUP" : "file changed"}); new requests use it`, {
        event: "config_reloaded",
        trigger,
        primary: next.agents.defaults.model.primary ?? null,
        cronJobs: this.#cron.count,
      });
      this.#retire(
        previous,
        Promise.all([drained, cronDone]).then(() => undefined),
      );
    } catch (error) {
      if (detour && detour !== this.#current) await detour.close();
      logger.log("error", `Config reload failed: ${describeError(error)}; the running config keeps serving`, {
        event: "config_reload_failed",
        trigger,
      });
    }
  }

  #retire(detour: DetourEngine, drained: Promise<void>): void {
    const retiring = drained
      .then(async () => {
        // The base Detour owns the stores every engine uses: it closes last, in close().
        if (detour !== this.#options.baseDetour) await detour.close();
        this.#options.logger.log("debug", "The previous engine finished its requests and was closed", { event: "config_engine_retired" });
      })
      .catch((error: unknown) => {
        this.#options.logger.log("warn", `Closing the previous engine failed: ${describeError(error)}`, { event: "config_engine_retired" });
      })
      .finally(() => this.#retiring.delete(retiring));
    this.#retiring.add(retiring);
  }

  /** Stops watching and reloading, stops the cron jobs (aborting runs); call before closing the gateway. */
  async stopReloading(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#debounce);
    this.#watcher?.close();
    await this.#chain;
    await this.#cron.stop();
  }

  /** After the gateway has closed: closes every engine still open, the base one (and its stores) last. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#retiring]);
    if (this.#current !== this.#options.baseDetour) await this.#current.close();
  }
}
