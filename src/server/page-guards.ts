import type { UserType } from "../db/schema.ts";

/**
 * The page areas only a signed-in, two-factor-complete user of one type may open (spec §2:
 * /admin/home, /resellers/home), and where everyone else is sent. An area covers every path under
 * its prefix, so a page added there later is guarded too; its public pages are listed.
 */
interface PageArea {
  prefix: string;
  userType: UserType;
  signIn: string;
  publicPaths: readonly string[];
}

const PAGE_AREAS: readonly PageArea[] = [
  { prefix: "/admin/", userType: "admin", signIn: "/admin", publicPaths: [] },
  {
    prefix: "/resellers/",
    userType: "reseller",
    signIn: "/resellers",
    // The reseller API's reference holds no account data.
    publicPaths: ["/resellers/api"],
  },
];

/** Decodes the percent-escapes of ASCII characters, the only ones that can spell an area. */
function decodeAsciiEscapes(path: string): string {
  return path.replace(
    /%[0-7][0-9a-f]/gi,
    (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)),
  );
}

/**
 * The path a guard compares: escapes decoded until none is left (Astro decodes repeatedly), doubled
 * slashes collapsed (Astro matches without them), no trailing slash, lowercased. It may name more
 * paths than Astro serves, never fewer, so the guard can only guard more.
 */
function normalizeGuardPath(pathname: string): string {
  let path = pathname;
  let previous;
  do {
    previous = path;
    path = decodeAsciiEscapes(path);
  } while (path !== previous);
  path = path.replace(/\/{2,}/g, "/").toLowerCase();
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/**
 * Where a request for `pathname` must be sent unless its session is `active` and of the area's
 * user type; undefined when it may be served.
 */
export function pageGuardRedirect(
  pathname: string,
  active: { userType: UserType } | null,
): string | undefined {
  const path = normalizeGuardPath(pathname);
  const area = PAGE_AREAS.find((a) => path.startsWith(a.prefix) && !a.publicPaths.includes(path));
  return area && active?.userType !== area.userType ? area.signIn : undefined;
}
