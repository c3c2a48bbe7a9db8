/**
 * Typed errors of the state layer (SPEC §16, R-SB-4). Stable codes; every message says what to do next and
 * never carries a secret.
 */
import { DetourError, ERROR_CODES } from "../core/errors.js";

/** The state layer's part of the one code table (`ERROR_CODES`), kept under its old name. */
export const STATE_ERROR_CODES = {
  secretKeyInvalid: ERROR_CODES.secretKeyInvalid,
  secretKeyMismatch: ERROR_CODES.secretKeyMismatch,
  secretKeyMissing: ERROR_CODES.secretKeyMissing,
  secretKeyNotShared: ERROR_CODES.secretKeyNotShared,
  schemaTooNew: ERROR_CODES.schemaTooNew,
  stateConfig: ERROR_CODES.stateConfig,
  storeUnavailable: ERROR_CODES.storeUnavailable,
} as const;

/** `DETOUR_SECRET_KEY` or the key file does not hold a base64-encoded 32-byte key. */
export class SecretKeyInvalidError extends DetourError {
  readonly code = STATE_ERROR_CODES.secretKeyInvalid;
  readonly keySource: string;

  constructor(keySource: string, problem: string) {
    super(
      `The secret key from ${keySource} is unusable: ${problem}. ` +
        `Provide a base64-encoded 32-byte key (for example the output of \`openssl rand -base64 32\`).`,
    );
    this.keySource = keySource;
  }
}

/**
 * The store's secrets were encrypted with another key. Raised instead of ever handing out garbage
 * credentials (R-SB-4).
 */
export class SecretKeyMismatchError extends DetourError {
  readonly code = STATE_ERROR_CODES.secretKeyMismatch;
  readonly store: string;
  readonly keySource: string;

  constructor(store: string, keySource: string, options?: { cause?: unknown }) {
    super(
      `The secrets in ${store} cannot be decrypted with the secret key from ${keySource}: ` +
        `they were encrypted with a different key (wrong DETOUR_SECRET_KEY or replaced key file). ` +
        `Start Detour with the key the store was created with; if that key is lost, remove the store and ` +
        `add the credentials again.`,
      options,
    );
    this.store = store;
    this.keySource = keySource;
  }
}

/**
 * The secrets in a shared Redis were sealed with another key than this process's: most often a second
 * gateway replica that created its own key file under its own `DETOUR_HOME`. Raised when the store connects,
 * so such a replica refuses to start instead of answering requests with errors.
 */
export class SecretKeyNotSharedError extends DetourError {
  readonly code = STATE_ERROR_CODES.secretKeyNotShared;
  readonly store: string;
  readonly keySource: string;

  constructor(store: string, keySource: string, options?: { cause?: unknown }) {
    super(
      `The secrets in ${store} were encrypted with another secret key than this process's (from ${keySource}). ` +
        `Every gateway replica that shares this Redis must use the same key: set DETOUR_SECRET_KEY to the same ` +
        `value on every replica — the key the first replica used (its DETOUR_SECRET_KEY, or the content of its ` +
        `$DETOUR_HOME/secret.key) — then start this one again.`,
      options,
    );
    this.store = store;
    this.keySource = keySource;
  }
}

/** The store exists, but neither `DETOUR_SECRET_KEY` nor the key file it was created with is there. */
export class SecretKeyMissingError extends DetourError {
  readonly code = STATE_ERROR_CODES.secretKeyMissing;
  readonly store: string;
  readonly keyFile: string;

  constructor(store: string, keyFile: string) {
    super(
      `The store ${store} exists, but its secret key is missing: DETOUR_SECRET_KEY is not set and ${keyFile} ` +
        `does not exist. Restore the key file or set DETOUR_SECRET_KEY to the key the store was created with; ` +
        `a new key could not decrypt the stored credentials.`,
    );
    this.store = store;
    this.keyFile = keyFile;
  }
}

/** The SQLite file was written by a newer Detour whose schema this version does not know. */
export class StateSchemaTooNewError extends DetourError {
  readonly code = STATE_ERROR_CODES.schemaTooNew;
  readonly path: string;
  readonly fileVersion: number;
  readonly supportedVersion: number;

  constructor(path: string, fileVersion: number, supportedVersion: number) {
    super(
      `The state file ${path} uses schema version ${fileVersion}, but this Detour understands up to ` +
        `version ${supportedVersion}. Upgrade Detour, or point DETOUR_HOME at another directory.`,
    );
    this.path = path;
    this.fileVersion = fileVersion;
    this.supportedVersion = supportedVersion;
  }
}

/** The state options cannot work (bad agent id, missing Redis URL, …). */
export class StateConfigError extends DetourError {
  readonly code = STATE_ERROR_CODES.stateConfig;

  constructor(message: string) {
    super(message);
  }
}

/**
 * The backend did not take a write someone asked for, or does not answer at all (R-SB-5). Nothing claims
 * success: the CLI exits 1, the admin API answers with this code.
 */
export class StoreUnavailableError extends DetourError {
  readonly code = STATE_ERROR_CODES.storeUnavailable;
  /** The backend as users know it, e.g. `Redis at redis://127.0.0.1:6390` or `the SQLite store /…/x.sqlite`. */
  readonly backend: string;

  constructor(input: { backend: string; problem: string; outcome?: string; hint: string; cause?: unknown }) {
    super(`${input.backend} ${input.problem}; ${input.outcome ?? "nothing was stored"}. ${input.hint}`, { cause: input.cause });
    this.backend = input.backend;
  }
}
