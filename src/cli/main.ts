#!/usr/bin/env node
/** The `detour` executable (package.json `bin`). Everything else lives in run-cli.ts and commands/. */
import { processCliDeps } from "./cli-deps.js";
import { runCli } from "./run-cli.js";

const exitCode = await runCli(process.argv.slice(2), processCliDeps());
// Exit explicitly once stdout has drained: idle keep-alive sockets or a finished store must not hold the
// process open, and a piped `--json` answer must not be cut off.
process.stdout.write("", () => process.exit(exitCode));
