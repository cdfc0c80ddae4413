/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Request-scoped context: configuration, database, auth. */
    app: import("./server/context.ts").AppContext;
    /** The session behind the cookie, or null. */
    session: import("./domain/auth/auth.ts").CurrentSession | null;
    /** The client address used for throttling. */
    ip: string;
  }
}
