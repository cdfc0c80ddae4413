// What a log line or a job knows of the request that caused it: its id, carried through every
// await by AsyncLocalStorage, and the route pattern it matched, for the request's log line and
// metrics. Kept on globalThis: the CLI and the built server bundle each carry a copy of this
// module, and both must see the one store.
import { AsyncLocalStorage } from "node:async_hooks";
import { hostname } from "node:os";

export interface RequestScope {
  requestId: string;
  /** The route pattern the request matched (`/api/orders/[id]`), once the app knows it. */
  route?: string;
}

const STORE_KEY = Symbol.for("topup.observability.scope");

function store(): AsyncLocalStorage<RequestScope> {
  const g = globalThis as { [STORE_KEY]?: AsyncLocalStorage<RequestScope> };
  g[STORE_KEY] ??= new AsyncLocalStorage<RequestScope>();
  return g[STORE_KEY];
}

/** Runs `fn` with `scope` as the current request's (its awaits and the jobs it queues included). */
export function runInScope<T>(scope: RequestScope, fn: () => T): T {
  return store().run(scope, fn);
}

/** The current request's scope, if any. */
export function currentScope(): RequestScope | undefined {
  return store().getStore();
}

/** The id of the request (or the job a request caused) this code runs for, if any. */
export function currentRequestId(): string | undefined {
  return store().getStore()?.requestId;
}

/** Records the route pattern the current request matched. */
export function noteRoute(route: string): void {
  const scope = store().getStore();
  if (scope) scope.route = route;
}

/**
 * An incoming X-Request-Id is kept when it looks like an id (a load balancer's or a client's, so
 * its lines and ours join up): 8 to 128 letters, digits and `._:-`. Anything else is replaced, so
 * no header can write arbitrary text into the logs.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestIdFrom(header: string | string[] | undefined | null): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given && SANE_REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

/** This process among the instances and workers: host and pid (the job runner's worker name). */
export const PROCESS_NAME = `${hostname()}:${Deno.pid}`;
