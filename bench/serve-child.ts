/**
 * How every HTTP child of the bench serves (upstream, floors): on an ephemeral loopback port, keep-alive
 * long enough for a whole scenario, its URL as the first line of stdout, and an exit when stdin closes
 * (the parent bench went away).
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

export function serveChild(server: Server): void {
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  });
  process.stdin.resume();
  process.stdin.on("close", () => process.exit(0));
}
