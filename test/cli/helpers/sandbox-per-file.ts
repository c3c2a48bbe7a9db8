/**
 * The sandbox most CLI test files share across their tests: the binary built before the first test (a build
 * may take minutes, hence the long hook timeout), a fresh temp home made then, and removed after the last test.
 */
import { afterAll, beforeAll } from "vitest";
import { ensureBuilt } from "./build.js";
import { createSandbox, type Sandbox } from "./run-detour.js";

/** Registers the file's hooks and returns the sandbox, usable from the first test on. */
export function sandboxPerFile(): Sandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    await ensureBuilt();
    sandbox = createSandbox();
  }, 180_000);
  afterAll(() => sandbox?.cleanup());
  const current = (): Sandbox => {
    if (sandbox === undefined) throw new Error("the file's sandbox exists only from its first test to its last");
    return sandbox;
  };
  return {
    get root() {
      return current().root;
    },
    get home() {
      return current().home;
    },
    get detourHome() {
      return current().detourHome;
    },
    get cwd() {
      return current().cwd;
    },
    get env() {
      return current().env;
    },
    writeConfig: (config, name) => current().writeConfig(config, name),
    run: (args, options) => current().run(args, options),
    spawn: (args, options) => current().spawn(args, options),
    cleanup: () => current().cleanup(),
  };
}
