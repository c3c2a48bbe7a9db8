/**
 * What `detour mock-provider` does (R-CL-3): the fault-injecting provider on loopback until Ctrl+C.
 * Scenario files are described in docs/mock-provider.md.
 */
import type { Command } from "commander";
import { BUILTIN_SCENARIOS, resolveScenarioArgument, startMockProvider } from "../../testing/mock-provider/index.js";
import type { CliDeps } from "../cli-deps.js";
import { CliUsageError, createOutput, type OutputStream } from "../output.js";

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

export interface MockProviderFlags {
  scenario: string;
  port: number;
  host: string;
  list?: boolean;
  json?: boolean;
}

/**
 * `detour mock-provider | head -1` closes the output once the reader has its line; Node reports each later
 * write as an 'error' event (EPIPE) that, unheard, ends the process with a stack. What the mock prints is
 * only a report: a closed output is ignored and the mock keeps serving until it is stopped.
 */
function ignoreClosedOutput(stream: OutputStream): void {
  const emitter = stream as OutputStream & { on?: (event: "error", listener: (error: NodeJS.ErrnoException) => void) => unknown };
  if (typeof emitter.on !== "function") return;
  emitter.on("error", (error) => {
    if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
  });
}

export async function serveMockProvider(deps: CliDeps, _command: Command, options: MockProviderFlags): Promise<void> {
  ignoreClosedOutput(deps.stdout);
  ignoreClosedOutput(deps.stderr);
  const out = createOutput(deps.stdout, deps.stderr, deps.env);
  if (options.list) {
    const scenarios = Object.entries(BUILTIN_SCENARIOS).map(([name, scenario]) => ({ name, description: scenario.description ?? "" }));
    if (options.json) out.json({ scenarios });
    else
      out.table(
        ["scenario", "behaviour"],
        scenarios.map((entry) => [entry.name, entry.description]),
      );
    return;
  }
  if (!LOOPBACK.has(options.host)) {
    throw new CliUsageError(`--host must be a loopback address (127.0.0.1, ::1 or localhost), got "${options.host}".`);
  }
  const set = await resolveScenarioArgument(options.scenario);
  const mockProvider = await startMockProvider({
    host: options.host,
    port: options.port,
    scenario: set.defaultScenario,
    scenarios: set.scenarios,
  });
  const info = {
    url: mockProvider.url,
    port: mockProvider.port,
    scenario: set.defaultScenario,
    baseUrls: {
      openai: `${mockProvider.url}/v1`,
      anthropic: mockProvider.url,
      google: `${mockProvider.url}/v1beta`,
      ollama: mockProvider.url,
    },
  };
  if (options.json) {
    // One line, so a script can read it while the server keeps running.
    deps.stdout.write(`${JSON.stringify(info)}\n`);
  } else {
    out.line(`Mock provider listening on ${info.url} (scenario: ${info.scenario})`);
    out.line(`  OpenAI base URL:    ${info.baseUrls.openai}`);
    out.line(`  Anthropic base URL: ${info.baseUrls.anthropic}`);
    out.line(`  Google base URL:    ${info.baseUrls.google}`);
    out.line(`  Ollama base URL:    ${info.baseUrls.ollama}`);
    out.line("Press Ctrl+C to stop.");
  }
  const signal = await deps.waitForShutdown();
  await mockProvider.close();
  out.error(`Mock provider stopped (${signal}) after ${mockProvider.counts().total} chat request(s).`);
}
