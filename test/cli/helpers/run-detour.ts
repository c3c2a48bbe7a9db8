/**
 * Spawns the built `detour` with HOME and DETOUR_HOME in a temp dir (never the real home), a clean
 * environment (no inherited provider keys, no OLLAMA_HOST pointing anywhere real) and optional stdin.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliPath } from "./build.js";

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Sandbox {
  root: string;
  home: string;
  detourHome: string;
  /** The working directory the CLI runs in, where writeConfig writes. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Writes `detour.json5` into the sandbox's working directory and returns its path. */
  writeConfig(config: unknown, name?: string): string;
  run(args: readonly string[], options?: { stdin?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<CliResult>;
  spawn(args: readonly string[], options?: { env?: NodeJS.ProcessEnv }): ChildProcessWithoutNullStreams;
  cleanup(): void;
}

/** A port on loopback where nothing listens, so the R-CF-5 Ollama probe finds nothing, deterministically. */
export const CLOSED_OLLAMA_HOST = "127.0.0.1:9";

export function createSandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "detour-cli-"));
  const home = join(root, "home");
  const detourHome = join(root, "detour-home");
  const cwd = join(root, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    USERPROFILE: home,
    DETOUR_HOME: detourHome,
    OLLAMA_HOST: CLOSED_OLLAMA_HOST,
    NO_COLOR: "1",
    TERM: "dumb",
  };
  const spawnDetour = (args: readonly string[], extraEnv: NodeJS.ProcessEnv = {}) =>
    spawn(process.execPath, [cliPath, ...args], { cwd, env: { ...env, ...extraEnv }, stdio: "pipe" });
  return {
    root,
    home,
    detourHome,
    cwd,
    env,
    writeConfig(config, name = "detour.json5") {
      const path = join(cwd, name);
      writeFileSync(path, typeof config === "string" ? config : JSON.stringify(config, null, 2));
      return path;
    },
    run(args, options = {}) {
      const child = spawnDetour(args, options.env);
      return collect(child, options.stdin, options.timeoutMs ?? 30_000);
    },
    spawn: (args, options = {}) => spawnDetour(args, options.env),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

function collect(child: ChildProcessWithoutNullStreams, stdin: string | undefined, timeoutMs: number): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`detour did not exit within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (stdin !== undefined) child.stdin.end(stdin);
    else child.stdin.end();
  });
}

/** Resolves with the first stdout line matching `pattern` of a long-running command. */
export function waitForLine(child: ChildProcessWithoutNullStreams, pattern: RegExp, timeoutMs = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    let errors = "";
    const timer = setTimeout(
      () => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms\nstdout: ${buffer}\nstderr: ${errors}`)),
      timeoutMs,
    );
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk;
      const line = buffer.split("\n").find((candidate) => pattern.test(candidate));
      if (line !== undefined) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      reject(new Error(`detour exited (${code}) before printing ${pattern}\nstdout: ${buffer}\nstderr: ${errors}`));
    });
  });
}

/** Sends a signal and resolves with the exit code and everything printed afterwards. */
export function stop(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals = "SIGINT", timeoutMs = 10_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: string) => (stdout += chunk));
    child.stderr.on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`detour did not stop within ${timeoutMs} ms after ${signal}`));
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.kill(signal);
  });
}
