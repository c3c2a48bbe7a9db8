/**
 * One gateway replica in its own process, so that a test can kill it with SIGKILL: argv[2] is JSON
 * `{ config, env }`. Prints `listening <url>` once it serves; `exit` on stdin closes it cleanly.
 */
import { createInterface } from "node:readline";
import { startGateway } from "../../../src/gateway/start-gateway.js";

const { config, env } = JSON.parse(process.argv[2] ?? "{}") as { config: Record<string, unknown>; env: Record<string, string> };
const gateway = await startGateway({ config, port: 0, env: { ...process.env, ...env } });
process.stdout.write(`listening ${gateway.url}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "exit") {
    await gateway.close();
    process.exit(0);
  }
}
