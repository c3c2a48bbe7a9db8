/**
 * The gateway of bench/trace-writes.bench.ts: bench/gateway.child.ts's setup (SQLite store in a temp
 * DETOUR_HOME, bench/gateway-setup.json, the production logger), with run traces recorded or not.
 * Usage: trace-gateway.child.ts <upstream-url> on|off [profile-path]. With a profile path, the line "start" on
 * stdin starts a V8 CPU profile (sampled every 100 µs) and "stop" writes it there and answers "stopped": only
 * the measured load is profiled, not start-up or warm-up.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStderrLogger } from "../src/cli/stderr-logger.js";
import type { DetourConfigInput } from "../src/config/index.js";
import { createDetour } from "../src/engine/create-detour.js";
import { startGateway } from "../src/gateway/start-gateway.js";
import type { LogLevel } from "../src/ports/events.js";
import setup from "./gateway-setup.json" with { type: "json" };

const upstream = process.argv[2] as string;
const recordTraces = process.argv[3] !== "off";
const profilePath = process.argv[4];
const home = mkdtempSync(join(tmpdir(), "detour-bench-traces-"));
const logger = createStderrLogger(process.stderr, (process.env.DETOUR_LOG_LEVEL ?? "info") as LogLevel, "json");
const providers = Object.fromEntries(
  Object.entries(setup.config.models.providers).map(([id, provider]) => [id, { ...provider, baseUrl: `${upstream}${provider.baseUrl}` }]),
);
const config = { ...setup.config, models: { providers } } as DetourConfigInput;
const env = { DETOUR_HOME: home, ...setup.env };
// The engine startGateway would build, built here only to say whether it records traces.
const detour = await createDetour({ config, env, logger, discoverEnvCredentials: true, recordTraces });
const gateway = await startGateway({ port: 0, logger, env, config, detour });
process.stdout.write(`${gateway.url}\n`);
if (profilePath) {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  let buffered = "";
  process.stdin.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    for (let newline = buffered.indexOf("\n"); newline !== -1; newline = buffered.indexOf("\n")) {
      const command = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (command === "start") void session.post("Profiler.start").then(() => process.stdout.write("started\n"));
      if (command === "stop") {
        void session.post("Profiler.stop").then(({ profile }) => {
          writeFileSync(profilePath, JSON.stringify(profile));
          process.stdout.write("stopped\n");
        });
      }
    }
  });
}
process.stdin.resume();
process.stdin.on("close", () => {
  void gateway
    .close()
    .then(() => detour.close())
    .then(() => {
      rmSync(home, { recursive: true, force: true });
      process.exit(0);
    });
});
