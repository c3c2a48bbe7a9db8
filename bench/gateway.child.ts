/**
 * Detour's gateway as the benchmark runs it (bench/gateway-child.mjs), in its own process so the harness can
 * pin it to a core. Usage: gateway.child.ts <upstream-url>. This one runs src/ through tsx;
 * bench/gateway-dist.child.mjs runs the built dist/ (`BENCH_DIST=1`).
 */
// The shared part is plain JavaScript (the dist child runs it on plain node), so it is loaded by URL.
const { serveBenchGateway } = await import(new URL("./gateway-child.mjs", import.meta.url).href);
await serveBenchGateway(process.argv[2], new URL("../src/", import.meta.url));
