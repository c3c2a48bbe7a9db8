/**
 * `detour run "<prompt>" [--agent --session --model --timeout-seconds --json --verbose]` (R-CL-1): the
 * command surface; the work is in actions/run.ts.
 */
import type { Command } from "commander";
import type { RunFlags } from "../actions/run.js";
import type { CliDeps } from "../cli-deps.js";
import { withExamples } from "../help.js";
import { agentOption, jsonOption, parsePositiveSeconds } from "../options.js";

export function registerRunCommand(program: Command, deps: CliDeps): void {
  const run = program
    .command("run")
    .description("send one prompt through the engine and print the answer (notice and attempts on stderr)")
    .argument("<prompt>", 'the prompt; "-" reads it from stdin')
    .addOption(agentOption())
    .option("--session <key>", "session key: the run reads and updates that session's overrides")
    .option("--model <ref>", "provider/model or alias for this run only; strict: no fallback to another model")
    .option("--timeout-seconds <seconds>", "give up after this many seconds (the whole run)", parsePositiveSeconds("--timeout-seconds"))
    .addOption(jsonOption())
    .option("--verbose", "also print every attempt on stderr")
    .action(async (prompt: string, flags: RunFlags, command: Command) =>
      (await import("../actions/run.js")).runPrompt(deps, command, prompt, flags),
    );
  withExamples(run, [
    'detour run "Summarise RFC 9110 in one sentence"',
    'detour run --model anthropic/claude-sonnet-4-6 "Hello"',
    'detour run --session chat-42 --verbose "And now in German"',
    'echo "Explain cooldowns" | detour run - --json',
  ]);
}
