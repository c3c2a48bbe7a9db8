/**
 * Secrets at rest (R-SB-4): AES-256-GCM from node:crypto, never a home-made scheme.
 *
 * The key comes from `DETOUR_SECRET_KEY` (base64, 32 bytes), an explicit option, or a key file created
 * with mode 0600 in `$DETOUR_HOME`. Every store also keeps a sealed "key check" record so that opening it
 * with the wrong key fails at once with `SecretKeyMismatchError` instead of at the first credential read.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmodSync, closeSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { DetourError } from "../core/errors.js";
import type { Credential } from "../core/types.js";
import { SecretKeyInvalidError, SecretKeyMismatchError, SecretKeyMissingError } from "./state-errors.js";

export const SECRET_KEY_ENV = "DETOUR_SECRET_KEY";
export const SECRET_KEY_FILE_NAME = "secret.key";

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEALED_PREFIX = "aes256gcm:v1:";
const KEY_CHECK_CONTEXT = "detour:key-check";
const KEY_CHECK_PLAINTEXT = "detour secret key check v1";

export interface SecretKey {
  readonly key: Buffer;
  /** Where the key came from, for error messages (never the key itself). */
  readonly source: string;
}

export interface ResolveSecretKeyOptions {
  detourHome: string;
  env?: NodeJS.ProcessEnv;
  /** Explicit key (base64 string or raw 32 bytes); wins over the environment and the key file. */
  secretKey?: string | Uint8Array;
  /**
   * Whether a missing key file may be created (default true). False when the store already exists: a fresh
   * key could never open it, so the missing key is reported instead of silently replaced.
   */
  createKeyFile?: boolean;
  /** Names the store in the error raised when the key file is missing and may not be created. */
  storeLabel?: string;
}

function decodeBase64Key(text: string, source: string): Buffer {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    throw new SecretKeyInvalidError(source, "it is not base64 text");
  }
  const key = Buffer.from(trimmed, "base64");
  if (key.length !== KEY_BYTES) {
    throw new SecretKeyInvalidError(source, `it decodes to ${key.length} bytes instead of ${KEY_BYTES}`);
  }
  return key;
}

/**
 * Creates the key file exactly once even when several processes start together: the key is written to a
 * private temporary file and hard-linked into place, so a reader never sees a half-written key.
 */
function createKeyFileOnce(path: string): void {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const fd = openSync(temporary, "wx", 0o600);
  try {
    writeSync(fd, `${randomBytes(KEY_BYTES).toString("base64")}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temporary);
  }
}

/** Resolves the encryption key: explicit option, then `DETOUR_SECRET_KEY`, then the key file (created if absent). */
export function resolveSecretKey(options: ResolveSecretKeyOptions): SecretKey {
  if (options.secretKey !== undefined) {
    const source = "the secretKey option";
    if (typeof options.secretKey === "string") return { key: decodeBase64Key(options.secretKey, source), source };
    if (options.secretKey.length !== KEY_BYTES) {
      throw new SecretKeyInvalidError(source, `it has ${options.secretKey.length} bytes instead of ${KEY_BYTES}`);
    }
    return { key: Buffer.from(options.secretKey), source };
  }
  const fromEnv = (options.env ?? process.env)[SECRET_KEY_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== "") {
    return { key: decodeBase64Key(fromEnv, SECRET_KEY_ENV), source: SECRET_KEY_ENV };
  }
  mkdirSync(options.detourHome, { recursive: true, mode: 0o700 });
  const path = join(options.detourHome, SECRET_KEY_FILE_NAME);
  const source = `the key file ${path}`;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    if (options.createKeyFile === false) throw new SecretKeyMissingError(options.storeLabel ?? options.detourHome, path);
    createKeyFileOnce(path);
    text = readFileSync(path, "utf8");
  }
  // Tighten a key file someone created by hand with looser permissions.
  chmodSync(path, 0o600);
  return { key: decodeBase64Key(text, source), source };
}

/** Encrypts and decrypts one store's secrets. `context` binds a ciphertext to its record (e.g. profile id). */
export class SecretBox {
  readonly #key: Buffer;
  readonly #keySource: string;
  readonly #storeLabel: string;
  readonly #mismatch: (store: string, keySource: string, options?: { cause?: unknown }) => DetourError;

  /**
   * `mismatch` builds the error for a record sealed with another key; a store shared by several processes
   * passes one that says every process must use the same key.
   */
  constructor(
    secretKey: SecretKey,
    storeLabel: string,
    mismatch: (store: string, keySource: string, options?: { cause?: unknown }) => DetourError = (...args) =>
      new SecretKeyMismatchError(...args),
  ) {
    this.#key = secretKey.key;
    this.#keySource = secretKey.source;
    this.#storeLabel = storeLabel;
    this.#mismatch = mismatch;
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    cipher.setAAD(Buffer.from(context, "utf8"));
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
  }

  open(sealed: string, context: string): string {
    if (!sealed.startsWith(SEALED_PREFIX)) {
      throw this.#mismatch(this.#storeLabel, this.#keySource, { cause: new Error("record is not in the sealed format") });
    }
    const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), "base64");
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.#key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, "utf8"));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
    } catch (error) {
      // GCM authentication failed: wrong key or a tampered record. Never return the garbage plaintext.
      throw this.#mismatch(this.#storeLabel, this.#keySource, { cause: error });
    }
  }

  /** A sealed constant, written once per store, so a wrong key is detected when the store opens. */
  makeKeyCheck(): string {
    return this.seal(KEY_CHECK_PLAINTEXT, KEY_CHECK_CONTEXT);
  }

  /** Throws `SecretKeyMismatchError` when `keyCheck` was sealed with another key. */
  verifyKeyCheck(keyCheck: string): void {
    if (this.open(keyCheck, KEY_CHECK_CONTEXT) !== KEY_CHECK_PLAINTEXT) {
      throw this.#mismatch(this.#storeLabel, this.#keySource);
    }
  }
}

const CREDENTIAL_TYPES = new Set(["api_key", "oauth", "token"]);

/** The context a profile's sealed credential is bound to: moving a ciphertext to another id fails to open. */
function credentialContext(profileId: string): string {
  return `detour:profile:${profileId}`;
}

export function sealCredential(box: SecretBox, profileId: string, credential: Credential): string {
  return box.seal(JSON.stringify(credential), credentialContext(profileId));
}

export function openCredential(box: SecretBox, profileId: string, sealed: string): Credential {
  const parsed = JSON.parse(box.open(sealed, credentialContext(profileId))) as Credential;
  if (typeof parsed !== "object" || parsed === null || !CREDENTIAL_TYPES.has(parsed.type)) {
    throw new SecretKeyMismatchError(`the stored profile ${profileId}`, "the current secret key", {
      cause: new Error("decrypted record is not a credential"),
    });
  }
  return parsed;
}
