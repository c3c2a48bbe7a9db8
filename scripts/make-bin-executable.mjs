// tsc drops the executable bit; npm links `detour` to this file, so it must be runnable after `prepare`.
import { chmodSync, existsSync } from "node:fs";

const binPath = new URL("../dist/cli/main.js", import.meta.url);
if (existsSync(binPath)) chmodSync(binPath, 0o755);
