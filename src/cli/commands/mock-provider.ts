/**
 * `detour mock-provider --scenario <name|file>` (R-CL-3): the command surface; the work is in
 * actions/mock-provider.ts.
 */
import type { Command } from "commander";
import type { MockProviderFlags } from "../actions/mock-provider.js";
import type { CliDeps } from "../cli-deps.js";
import { withExamples } from "../help.js";
import { jsonOption, parsePort } from "../options.js";

export function registerMockProviderCommand(program: Command, deps: CliDeps): void {
  const mock = program
    .command("mock-provider")
    .description("serve scripted provider faults on loopback (OpenAI, Anthropic, Google, Ollama wire formats)")
    .option("--scenario <name|file>", "a built-in scenario name or a scenario file (.json/.json5)", "healthy")
    .option("--port <port>", "port to listen on (0 picks a free one)", parsePort, 0)
    .option("--host <host>", "loopback address to bind", "127.0.0.1")
    .option("--list", "list the built-in scenarios and exit")
    .addOption(jsonOption())
    .action(async (options: MockProviderFlags, command: Command) =>
      (await import("../actions/mock-provider.js")).serveMockProvider(deps, command, options),
    );
  withExamples(mock, [
    "detour mock-provider --scenario rate-limited --port 9000",
    "detour mock-provider --scenario ./my-faults.json5",
    "detour mock-provider --list",
    '# then point a provider at it: models.providers.openai.baseUrl = "http://127.0.0.1:9000/v1"',
  ]);
}
