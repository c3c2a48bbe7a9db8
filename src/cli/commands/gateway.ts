/**
 * `detour gateway`: the HTTP gateway plus the cron.jobs scheduler until Ctrl+C. The command surface; the work
 * is in actions/gateway.ts.
 */
import { type Command, Option } from "commander";
import type { GatewayFlags } from "../actions/gateway.js";
import type { CliDeps } from "../cli-deps.js";
import { withExamples } from "../help.js";
import { jsonOption, parsePort } from "../options.js";

export function registerGatewayCommand(program: Command, deps: CliDeps): void {
  const gateway = program
    .command("gateway")
    .description("serve the OpenAI- and Anthropic-compatible gateway and run cron.jobs until Ctrl+C")
    .option("--host <host>", "bind address (default gateway.host, 127.0.0.1)")
    .option("--port <port>", "port (default gateway.port, 4141; 0 picks a free one)", parsePort)
    .addOption(
      new Option(
        "--log-format <format>",
        "log lines on stderr: json for machines, pretty for people (default: pretty on a terminal, else json)",
      ).choices(["json", "pretty"]),
    )
    .addOption(jsonOption())
    .action(async (options: GatewayFlags, command: Command) =>
      (await import("../actions/gateway.js")).serveGateway(deps, command, options),
    );
  withExamples(gateway, [
    "detour gateway",
    "detour --config ./detour.json5 gateway --port 8080",
    "OPENAI_API_KEY=sk-… detour gateway --json",
    "detour gateway --log-format pretty 2> gateway.log",
    "# then: OpenAI({ baseURL: 'http://127.0.0.1:4141/v1', apiKey: '<client token or anything>' })",
  ]);
}
