/** The error catalogue lives in errors/; this path stays for the modules that import it. */
export * from "./errors/index.js";
