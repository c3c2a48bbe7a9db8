/**
 * `detour mock-provider` as a user starts it, through the built binary: a busy port is reported in words
 * with what to do, and a closed output (`| head -1`) neither crashes it nor stops it serving.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createServer, type Server } from "node:net";
import { describe, expect, it } from "vitest";
import { cliPath } from "./helpers/build.js";
import { sandboxPerFile } from "./helpers/sandbox-per-file.js";

const sandbox = sandboxPerFile();

function listenOnFreePort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

describe("detour mock-provider on a busy port", () => {
  it("exits 1 naming the port and what to do, with the stable code's wording and no raw EADDRINUSE", async () => {
    const busy = await listenOnFreePort();
    const port = (busy.address() as { port: number }).port;
    try {
      const result = await sandbox.run(["mock-provider", "--port", String(port)]);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(result.stderr).toContain("detour mock-provider --port <port>");
      expect(result.stderr).not.toContain("EADDRINUSE");
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stdout).toBe("");
    } finally {
      await new Promise((done) => busy.close(done));
    }
  });
});

describe("detour mock-provider | head -1", () => {
  it.each([
    ["stdout", ""],
    ["stdout and stderr", "2>&1"],
  ])(
    "with %s piped: prints its first line, keeps serving with its output closed, and stops quietly on Ctrl+C",
    async (_piped, redirect) => {
      // The shell notes the mock's pid and, once it ends, its exit status (on stderr, which is not piped).
      const pidFile = join(sandbox.root, `mock-${redirect === "" ? "out" : "both"}.pid`);
      const script = `{ "${process.execPath}" "${cliPath}" mock-provider ${redirect} & echo $! > "${pidFile}"; wait $!; echo "mock exited $?" >&3; } 3>&2 | head -1`;
      const pipeline = spawn("sh", ["-c", script], { cwd: sandbox.root, env: sandbox.env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      pipeline.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      pipeline.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => pipeline.on("close", (code) => resolve(code)));
      let mockPid: number | undefined;
      try {
        const deadline = Date.now() + 15_000;
        while (!stdout.includes("\n") && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
        expect(stdout).toMatch(/^Mock provider listening on http:\/\/127\.0\.0\.1:\d+ \(scenario: healthy\)\n$/);
        mockPid = Number(readFileSync(pidFile, "utf8").trim());
        const url = /listening on (\S+)/.exec(stdout)?.[1] ?? "";
        // head has exited: the mock's later lines met a closed pipe, and it still answers.
        const response = await fetch(`${url}/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer sk-head" },
          body: JSON.stringify({ model: "mock-gpt", messages: [{ role: "user", content: "still there?" }] }),
        });
        expect(response.status).toBe(200);
        process.kill(mockPid, "SIGINT");
        expect(await exited, stderr).toBe(0);
        // With stderr piped too, its last line went to the closed pipe: only the shell's note is seen.
        if (redirect === "") expect(stderr).toContain("Mock provider stopped (SIGINT) after 1 chat request(s).");
        expect(stderr).toContain("mock exited 0");
        expect(stderr).not.toContain("EPIPE");
        expect(stderr).not.toMatch(/\n\s+at /);
      } finally {
        if (pipeline.exitCode === null) {
          if (mockPid !== undefined) process.kill(mockPid, "SIGKILL");
          pipeline.kill("SIGKILL");
        }
      }
    },
  );
});
