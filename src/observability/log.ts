// The app's log: one JSON line per event (pino), stamped with the current request id. LOG_FORMAT
// pretty prints for a terminal; LOG_LEVEL filters. Nothing secret is ever passed to it: lines
// carry ids, route patterns, statuses and error messages, never bodies, headers or query strings,
// and the keys below are censored should one slip in.
import { writeSync } from "node:fs";
import process from "node:process";
import { setImmediate } from "node:timers";
import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import { currentRequestId, PROCESS_NAME } from "./context.ts";

const LOGGER_KEY = Symbol.for("topup.observability.logger");
const STDERR_KEY = Symbol.for("topup.observability.logToStderr");

/** Keys whose values never reach a line: a line's own, or those of an object it carries. */
const SECRET_KEYS = new Set([
  "password",
  "token",
  "secret",
  "authorization",
  "cookie",
  "apiKey",
  "salt",
  "totp",
]);

const CENSORED = "[redacted]";

/**
 * A line's fields with the value of every secret key censored, the line's own keys and those of a
 * plain object among its values; the caller's objects are left as they are. (An error is written
 * as its kind, message and stack only, whatever else it carries.)
 */
export function censorSecrets(fields: Record<string, unknown>): Record<string, unknown> {
  let censored = shallowCensored(fields);
  for (const key in censored) {
    const value = censored[key];
    if (!isPlainObject(value)) continue;
    const inner = shallowCensored(value);
    if (inner === value) continue;
    if (censored === fields) censored = { ...fields };
    censored[key] = inner;
  }
  return censored;
}

/** `object` with its own secret keys' values censored: a copy when it has any, else itself. */
function shallowCensored(object: Record<string, unknown>): Record<string, unknown> {
  let censored = object;
  for (const key in object) {
    if (!SECRET_KEYS.has(key)) continue;
    if (censored === object) censored = { ...object };
    censored[key] = CENSORED;
  }
  return censored;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Where the JSON lines go: the lines logged in one turn of the event loop are written together at
 * its end, in one write instead of one each. A warning or an error is written at once, with the
 * lines before it, and so is everything left when the process exits. A process killed outright
 * loses at most the lines of the turn it was in. Writing never fails the code that logs: a full
 * pipe is waited for, and lines nobody can take any more (the reader gone) are dropped.
 */
export function turnBufferedLines(fd: number) {
  const encoder = new TextEncoder();
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let pending = "";
  let due = false;
  const flush = () => {
    due = false;
    if (!pending) return;
    const bytes = encoder.encode(pending);
    pending = "";
    for (let written = 0; written < bytes.length;) {
      try {
        written += writeSync(fd, bytes, written);
      } catch (error) {
        if ((error as { code?: string }).code !== "EAGAIN") return;
        Atomics.wait(pause, 0, 0, 1);
      }
    }
  };
  // A Node-style exit and Deno's own (Deno.exit, the end of the program) each tell in their way.
  process.on("exit", flush);
  globalThis.addEventListener("unload", flush);
  return {
    write(line: string): void {
      pending += line;
      if (!due) {
        due = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

function createLogger(): Logger {
  const level = Deno.env.get("LOG_LEVEL") || "info";
  const options: pino.LoggerOptions = {
    level,
    base: { worker: PROCESS_NAME },
    // Levels by name and times in ISO 8601: what log stacks index and people read.
    formatters: { level: (label) => ({ level: label }), log: censorSecrets },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Only an error's kind, message and stack: a database driver's error carries the query's
    // parameters, which may be anything.
    serializers: {
      err: (error: unknown) =>
        error instanceof Error
          ? { type: error.name, message: error.message, stack: error.stack }
          : { message: String(error) },
    },
    mixin: () => {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
  };
  const fd = (globalThis as { [STDERR_KEY]?: boolean })[STDERR_KEY] ? 2 : 1;
  if (Deno.env.get("LOG_FORMAT") === "pretty") {
    const colorize = (fd === 2 ? Deno.stderr : Deno.stdout).isTerminal();
    return pino(options, pretty({ sync: true, colorize, destination: fd }));
  }
  const lines = turnBufferedLines(fd);
  const warn = pino.levels.values.warn;
  return pino({
    ...options,
    hooks: {
      logMethod(args, method, level) {
        method.apply(this, args);
        if (level >= warn) lines.flush();
      },
    },
  }, lines);
}

/**
 * Log lines go to stderr from now on, for a CLI command whose stdout is its answer (`--json`,
 * CSV): call before the first line is logged. A server and a worker log to stdout.
 */
export function sendLogsToStderr(): void {
  (globalThis as { [STDERR_KEY]?: boolean })[STDERR_KEY] = true;
}

/** The process-wide logger (one for the CLI and the server bundle alike). */
export function logger(): Logger {
  const g = globalThis as { [LOGGER_KEY]?: Logger };
  g[LOGGER_KEY] ??= createLogger();
  return g[LOGGER_KEY];
}
