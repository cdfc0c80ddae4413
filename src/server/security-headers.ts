// The headers every answer carries (OWASP ASVS 14.4): no MIME sniffing, no framing by other sites,
// a Content-Security-Policy, and HSTS in production.

/** What every answer's policy holds, whatever else it allows. */
const BASE_POLICY = "default-src 'self'; img-src 'self' data: https:; object-src 'none'; " +
  "base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/** Two years, subdomains included: production is served over HTTPS only. */
const HSTS = "max-age=63072000; includeSubDomains";

/**
 * The Content-Security-Policy of an answer. A page's policy comes from Astro (`security.csp`:
 * scripts only from this origin or with the hash of an inline script Astro itself rendered, so
 * no injected script runs). Its style hashes are replaced by 'unsafe-inline': an email's sandboxed
 * frame inherits the page's policy and its sanitized body keeps inline styles, which cannot be
 * hashed ahead; a style cannot run code.
 */
export function contentSecurityPolicy(astroPolicy: string | null): string {
  if (!astroPolicy) return BASE_POLICY;
  return astroPolicy.split(";").map((d) => d.trim()).filter(Boolean)
    .map((d) => d.startsWith("style-src") ? "style-src 'self' 'unsafe-inline'" : d)
    .join("; ");
}

/** Sets the security headers on `headers` (an answer's, before it leaves). */
export function setSecurityHeaders(headers: Headers, production: boolean): void {
  headers.set(
    "Content-Security-Policy",
    contentSecurityPolicy(headers.get("content-security-policy")),
  );
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "same-origin");
  headers.set("X-Frame-Options", "DENY");
  if (production) headers.set("Strict-Transport-Security", HSTS);
}
