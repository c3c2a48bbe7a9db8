/**
 * The benchmark's upstream, in its own process so the gateway's process measures only Detour's work.
 * Prints its URL as the first line of stdout and exits when stdin closes (its parent went away).
 */
import { startMockProvider } from "../src/testing/mock-provider/index.js";

const mock = await startMockProvider({ scenario: "healthy", models: ["bench-gpt"], tokenDelayMs: 0, recordLimit: 1 });
process.stdout.write(`${mock.url}\n`);
process.stdin.resume();
process.stdin.on("close", () => {
  void mock.close().then(() => process.exit(0));
});
