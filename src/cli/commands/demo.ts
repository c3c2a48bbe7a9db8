/**
 * `detour demo` (R-CL-2): failover, live, with no keys and no network. Two fault-injecting mock providers
 * (OpenAI and Anthropic wire formats) and a real gateway on 127.0.0.1, over an embedded SQLite store in a
 * fresh temp dir, play a scripted storyline: healthy traffic, a nearly spent key passed over before its
 * rate limit (R-PO-7), a rate limit rotating to the second key, a billing disable, an outage with model fallback and its notice, and the primary's recovery with the
 * cleared notice. The user's config, store, home and environment are never touched.
 *
 * Time: R-SO-3 re-probes a fallen-back session's primary at most every 5 minutes. The demo's gateway runs
 * on a demo clock that skips ahead (shown as "⏩ +5m 0s") instead of waiting; the rules are not shortened.
 * `--fast` only removes the pauses that make the default run watchable (it ends in a few seconds).
 */
import { Option, type Command } from "commander";
import { missingStorylineParts } from "../../demo/storyline-check.js";
import { onOutputClosed } from "../../demo/output-closed.js";
import { NdjsonSink } from "../../demo/render-ndjson.js";
import { LiveView } from "../../demo/render-live.js";
import type { CliDeps } from "../cli-deps.js";
import { ReportedFailure } from "../cli-errors.js";
import { commandContext } from "../command-context.js";
import { withExamples } from "../help.js";
import { EXIT_RUNTIME_FAILURE } from "../output.js";

export function registerDemoCommand(program: Command, deps: CliDeps): void {
  const demo = program
    .command("demo")
    .description(
      "watch Detour steer around rate limits, rotate keys, fall back and recover — mock providers on loopback, no keys, no network",
    )
    .option("--fast", "play the storyline without pauses (a few seconds; for tests and CI)")
    .addOption(new Option("--json", "print one JSON event per line (NDJSON) instead of the live view"))
    .action(async (options: { fast?: boolean; json?: boolean }, command: Command) => {
      // Engine logs stay quiet unless DETOUR_LOG_LEVEL asks for them: the live view is the output here.
      const context = commandContext(deps, command, "error");
      const { out } = context;
      const controller = new AbortController();
      let interruptedBy: string | undefined;
      const interrupt = (why: string) => {
        interruptedBy ??= why;
        controller.abort();
      };
      void deps.waitForShutdown().then(interrupt);
      const stopWatchingOutput = onOutputClosed(deps.stdout, () => interrupt("its output was closed"));
      const sink = options.json
        ? new NdjsonSink(deps.stdout)
        : new LiveView(deps.stdout, out.colors, { tty: Boolean(deps.stdout.isTTY) && deps.env.TERM !== "dumb" });
      try {
        // Loaded on use: the gateway, the mock providers and the store must not slow down every other command.
        const { runDemo } = await import("../../demo/run-demo.js");
        const summary = await runDemo({ fast: options.fast ?? false, sink, signal: controller.signal, logger: context.logger });
        const missing = missingStorylineParts(summary);
        if (missing.length > 0) {
          out.error(`detour demo: the storyline did not play out as scripted: ${missing.join("; ")}.`);
          out.error("This is a bug in Detour; please report it with the output of `detour demo --fast --json`.");
          throw new ReportedFailure(EXIT_RUNTIME_FAILURE);
        }
      } catch (error) {
        if (interruptedBy === undefined) throw error;
        out.error(`detour demo: interrupted (${interruptedBy}); it stopped everything it had started.`);
        throw new ReportedFailure(EXIT_RUNTIME_FAILURE);
      } finally {
        stopWatchingOutput();
      }
    });
  withExamples(demo, [
    "detour demo",
    "detour demo --fast",
    "detour demo --fast --json | jq -c 'select(.type == \"notice\")'",
    "detour demo --fast --json | jq -c 'select(.type == \"headroom_passed_over\")'",
    "# time skips (⏩) run on the demo's own clock; your config and ~/.detour are never read or written",
  ]);
}
