/**
 * `npm run bench`: every benchmark in sequence — engine decision cost, store operations, Detour vs the floor.
 * Numbers are printed, never asserted: speed is checked here, not in timed unit tests.
 */
import { spawnSync } from "node:child_process";
import { benchEngine } from "./engine.bench.js";
import { benchFloor } from "./floor.bench.js";

await benchEngine();
// The store bench manages its own rounds and Redis connection; run it as its own process.
const store = spawnSync(process.execPath, ["--import", "tsx", new URL("./store.bench.ts", import.meta.url).pathname], {
  stdio: "inherit",
});
if (store.status !== 0) process.exitCode = store.status ?? 1;
// Detour against the floor proxy (the gateway bench); gateway.bench.ts stays for direct-vs-gateway runs.
await benchFloor();
