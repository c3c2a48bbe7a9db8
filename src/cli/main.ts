#!/usr/bin/env node
/** The `detour` executable (package.json `bin`). Everything else lives in run-cli.ts and commands/. */
import { processCliDeps } from "./cli-deps.js";
import { boundGatewayHeap } from "./gateway-heap.js";
import { commandNameOf } from "./program.js";
import { runCli } from "./run-cli.js";

const argv = process.argv.slice(2);
const deps = processCliDeps();
// The gateway process bounds its heap before the gateway's modules load (issue 9); only here, in the
// process the bin owns, never in a library call or a test's process.
const heap = commandNameOf(argv) === "gateway" ? boundGatewayHeap({ execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS }) : undefined;
const exitCode = await runCli(argv, heap ? { ...deps, onGatewayListening: () => heap.serving() } : deps);
// Exit explicitly once stdout has drained: idle keep-alive sockets or a finished store must not hold the
// process open, and a piped `--json` answer must not be cut off.
process.stdout.write("", () => process.exit(exitCode));
