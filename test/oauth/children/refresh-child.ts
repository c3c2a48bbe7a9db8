/**
 * One process of the cross-process R-AP-5 test: opens a Detour on the shared SQLite store, prints `ready`,
 * waits for `go` on stdin (so every process starts its run at the same moment), runs once and prints the
 * access token its attempt received as `result <token>`.
 */
import { createInterface } from "node:readline";
import { createDetour } from "../../../src/engine/create-detour.js";

interface ChildSpec {
  detourHome: string;
  secretKey: string;
  tokenUrl: string;
}

const spec = JSON.parse(process.argv[2] ?? "{}") as ChildSpec;

const detour = await createDetour({
  config: {
    state: { backend: "sqlite" },
    agents: { defaults: { model: { primary: "anthropic/claude-sonnet-4-6" } } },
    models: { providers: { anthropic: { oauth: { tokenUrl: spec.tokenUrl, clientId: "detour-test" } } } },
  },
  env: { DETOUR_HOME: spec.detourHome, DETOUR_SECRET_KEY: spec.secretKey },
});
// Open the store before the start signal so every process races only on the refresh itself.
await detour.store();

const lines = createInterface({ input: process.stdin });
process.stdout.write("ready\n");
for await (const line of lines) {
  if (line.trim() === "go") break;
}
lines.close();

const out = await detour.runWith({
  attempt: async (context) => (context.credential?.type === "oauth" ? context.credential.access : undefined),
});
process.stdout.write(`result ${String(out.result)}\n`);
await detour.close();
