/**
 * For gateway-heap.test.ts: a process that allocates like a gateway — first a start-up whose objects all
 * survive, then a load whose objects live across scavenges — and prints the young generation's size after
 * each phase as one JSON line. argv[2] is "bounded" (boundGatewayHeap first) or "default".
 */
import { getHeapSpaceStatistics } from "node:v8";
import { boundGatewayHeap } from "../../../src/cli/gateway-heap.js";

const newSpaceMb = () => (getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0) / 1048576;
const heap = process.argv[2] === "bounded" ? boundGatewayHeap({ execArgv: [], nodeOptions: undefined }) : undefined;

const kept: unknown[] = [];
// Start-up: 40 MB that all stays (the gateway's modules and schemas).
for (let index = 0; index < 400_000; index += 1) kept.push({ index, text: `module ${index}`, list: [index, index + 1] });
const afterStart = newSpaceMb();
heap?.serving();

// Load: a window of "requests" in flight; each survives a few scavenges, then is dropped.
const window: unknown[][] = [];
const tick = () => new Promise((resolve) => setImmediate(resolve));
for (let round = 0; round < 300; round += 1) {
  window.push(Array.from({ length: 2_000 }, (_, index) => ({ round, index, body: `chunk ${round}:${index}` })));
  if (window.length > 20) window.shift();
  // GC entries reach the observer on a later turn, as for a server between requests.
  if (round % 10 === 0) await tick();
}
process.stdout.write(`${JSON.stringify({ afterStart, afterLoad: newSpaceMb(), kept: kept.length })}\n`);
heap?.stop();
