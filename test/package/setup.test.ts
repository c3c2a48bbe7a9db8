/**
 * What a newcomer runs first: the README's install and test commands. The test command must pass on a
 * fresh machine of the CI kind (it provides Redis and Chromium itself), CI must run exactly it, the install
 * section must not claim a publication that does not exist, and `npm install` must not warn about engines
 * on a supported Node.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, chmodSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  name: string;
  version: string;
  scripts: Record<string, string>;
  engines: { node: string };
};

/** The first fenced shell block after a heading-like sentence of the README. */
function commandAfter(lead: string): string {
  const at = readme.indexOf(lead);
  expect(at, `README has "${lead}"`).toBeGreaterThanOrEqual(0);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  expect(block).not.toBeNull();
  return block![1]!.trim();
}

describe("the README's test command", () => {
  it("is npm install && npm run test:ci, and .ci/run runs exactly it", () => {
    const command = commandAfter("Run the tests");
    expect(command).toBe("npm install && npm run test:ci");
    const ciLines = readFileSync(join(root, ".ci/run"), "utf8")
      .split("\n")
      .map((line) => line.trim());
    expect(ciLines).toContain(command);
  });

  it("test:ci runs scripts/test.sh, and npm test stays the typecheck, the formatting check and every test", () => {
    expect(manifest.scripts["test:ci"]).toBe("bash scripts/test.sh");
    expect(manifest.scripts.test).toBe("npm run typecheck && npm run format:check && vitest run");
  });
});

describe("scripts/test.sh", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A PATH holding only the tools the script needs, with recording stand-ins for npm and apt-get (the real
   * ones would run the whole suite or change the machine) and, when asked, no chromium.
   */
  function sandboxPath(options: { chromium: boolean; aptSucceedsAfterUpdate: boolean; npmExit: number }) {
    const dir = mkdtempSync(join(tmpdir(), "detour-test-sh-"));
    dirs.push(dir);
    const bin = join(dir, "bin");
    mkdirSync(bin);
    for (const tool of ["bash", "dirname", "seq", "sleep", "cat", "redis-server"]) {
      symlinkSync(execFileSync("bash", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim(), join(bin, tool));
    }
    if (options.chromium) symlinkSync("/usr/bin/chromium", join(bin, "chromium"));
    const log = join(dir, "calls.log");
    const write = (name: string, body: string) => {
      writeFileSync(join(bin, name), `#!/usr/bin/env bash\n${body}\n`);
      chmodSync(join(bin, name), 0o755);
    };
    write("npm", `echo "npm $*" >> ${log}; exit ${options.npmExit}`);
    write(
      "apt-get",
      `echo "apt-get $*" >> ${log}\n` +
        (options.aptSucceedsAfterUpdate
          ? `[[ "$1" == update ]] && { touch ${dir}/updated; exit 0; }; [[ -f ${dir}/updated ]] && exit 0; exit 100`
          : "exit 100"),
    );
    return { path: bin, calls: () => readFileSync(log, "utf8").trim().split("\n") };
  }

  function runScript(path: string) {
    return spawnSync(join(root, "scripts/test.sh"), { env: { PATH: path, HOME: tmpdir() }, encoding: "utf8" });
  }

  it("runs npm test and returns its exit status when Redis answers and chromium is there", () => {
    const sandbox = sandboxPath({ chromium: true, aptSucceedsAfterUpdate: true, npmExit: 3 });
    const result = runScript(sandbox.path);
    expect(result.status).toBe(3);
    expect(sandbox.calls()).toEqual(["npm test"]);
    expect(result.stdout).not.toContain("Redis is not answering");
  });

  it("installs chromium from Debian when it is missing, updating the package lists when the first try fails", () => {
    const sandbox = sandboxPath({ chromium: false, aptSucceedsAfterUpdate: true, npmExit: 0 });
    const result = runScript(sandbox.path);
    expect(result.status).toBe(0);
    expect(sandbox.calls()).toEqual(["apt-get install -y chromium", "apt-get update", "apt-get install -y chromium", "npm test"]);
    expect(result.stdout).toContain("chromium is missing");
  });

  it("says so when chromium cannot be installed, and still runs the tests", () => {
    const sandbox = sandboxPath({ chromium: false, aptSucceedsAfterUpdate: false, npmExit: 0 });
    const result = runScript(sandbox.path);
    expect(result.stdout).toContain("Could not install chromium");
    expect(sandbox.calls().at(-1)).toBe("npm test");
  });
});

describe("the README's install section", () => {
  it("does not claim the package is on npm, and says how to install from a clone or a packed tarball", () => {
    expect(readme).not.toContain("npm install -g detour-llm");
    expect(readme).not.toMatch(/npx -p detour-llm/);
    expect(readme).not.toMatch(/is published on npm/);
    expect(readme).toContain("not published on npm yet");
    const tarball = `${manifest.name}-${manifest.version}.tgz`;
    expect(readme).toContain("npm pack");
    expect(readme).toContain(`npm install -g ./${tarball}`);
    expect(readme).toContain("npm link");
  });
});

describe("dependencies on a supported Node", () => {
  const requireFromRoot = createRequire(join(root, "package.json"));
  // semver comes with npm's own dependency tree (fastify uses it); its types are not installed.
  const semver = requireFromRoot("semver") as { satisfies(version: string, range: string): boolean };
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dev?: boolean; engines?: { node?: string } }>;
  };
  const withEngines = Object.entries(lock.packages).filter(([path, entry]) => path !== "" && entry.engines?.node);

  it("no installed package requires a newer Node than this one (npm install prints no EBADENGINE)", () => {
    const refused = withEngines
      .filter(([, entry]) => !semver.satisfies(process.version, entry.engines!.node!))
      .map(([path, entry]) => `${path} needs node ${entry.engines!.node}`);
    expect(refused).toEqual([]);
  });

  it("every runtime dependency runs on the oldest supported Node of each line (20.18.1 and 22.0.0)", () => {
    for (const oldest of ["20.18.1", "22.0.0"]) {
      expect(semver.satisfies(oldest, manifest.engines.node)).toBe(true);
      const refused = withEngines
        .filter(([, entry]) => !entry.dev && !semver.satisfies(oldest, entry.engines!.node!))
        .map(([path, entry]) => `${path} needs node ${entry.engines!.node}`);
      expect(refused, `on ${oldest}`).toEqual([]);
    }
  });

  it("the cookie that fastify's inject uses is a Node 20 one and still writes the cookies a test sends", async () => {
    const app = Fastify();
    app.get("/", async (request) => ({ cookie: request.headers.cookie }));
    const response = await app.inject({ method: "GET", url: "/", cookies: { session: "chat 42" } });
    await app.close();
    expect(response.json()).toEqual({ cookie: "session=chat%2042" });
  });
});
