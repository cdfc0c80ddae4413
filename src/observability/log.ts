// The app's log: one JSON line per event (pino), stamped with the current request id. LOG_FORMAT
// pretty prints for a terminal; LOG_LEVEL filters. Nothing secret is ever passed to it: lines
// carry ids, route patterns, statuses and error messages, never bodies, headers or query strings,
// and the keys below are censored should one slip in.
import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import { currentRequestId, PROCESS_NAME } from "./context.ts";

const LOGGER_KEY = Symbol.for("topup.observability.logger");
const STDERR_KEY = Symbol.for("topup.observability.logToStderr");

/** Keys whose values never reach a line, at any depth pino's redaction reaches. */
const REDACTED = [
  "password",
  "token",
  "secret",
  "authorization",
  "cookie",
  "apiKey",
  "salt",
  "totp",
].flatMap((key) => [key, `*.${key}`]);

function createLogger(): Logger {
  const level = Deno.env.get("LOG_LEVEL") || "info";
  const options: pino.LoggerOptions = {
    level,
    base: { worker: PROCESS_NAME },
    // Levels by name and times in ISO 8601: what log stacks index and people read.
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED, censor: "[redacted]" },
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
  return pino(options, pino.destination({ fd, sync: true }));
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
