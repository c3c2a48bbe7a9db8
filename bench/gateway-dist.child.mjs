/**
 * bench/gateway.child.ts on the built dist/ with plain node (what `detour gateway` runs): no tsx, whose
 * transform adds a `__name` call per closure and keeps every file's source map in memory. Needs
 * `npm run build`. Usage: gateway-dist.child.mjs <upstream-url> [<dist directory>]; the second argument runs
 * another checkout's built gateway (the bench's BENCH_BASELINE) with this same setup.
 */
import { pathToFileURL } from "node:url";
import { serveBenchGateway } from "./gateway-child.mjs";

const dist = process.argv[3] ? pathToFileURL(`${process.argv[3]}/`) : new URL("../dist/", import.meta.url);
await serveBenchGateway(process.argv[2], dist);
