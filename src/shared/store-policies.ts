// The shop's own pages that buyers look for before paying: Terms of Service, Privacy Policy and
// Refund Policy, and the company behind the shop. Admins write them in Settings; the consumer
// footer links the pages that have content. Pure: no I/O.

/** The policy pages, in the footer's order; `slug` is the page's address, /consumers/{slug}. */
export const POLICY_PAGES = [
  { key: "terms", slug: "terms", title: "Terms of Service" },
  { key: "privacy", slug: "privacy", title: "Privacy Policy" },
  { key: "refunds", slug: "refunds", title: "Refund Policy" },
] as const;

export type PolicyKey = (typeof POLICY_PAGES)[number]["key"];

/** Who runs the shop, as the footer shows it. */
export interface CompanyDetails {
  name: string;
  registrationNumber: string;
  address: string;
  email: string;
}

/** What Admin → Settings → Store Policies holds (GET and PUT /api/settings/store-policies). */
export interface StorePolicies {
  terms: string;
  privacy: string;
  refunds: string;
  company: CompanyDetails;
}

/** The consumer footer's policy links and company details; only what has content. */
export interface StorefrontFooter {
  links: { href: string; title: string }[];
  /** Null until a company name is filled in. */
  company: CompanyDetails | null;
}

/** One block of a policy page: a heading or a paragraph, both plain text. */
export type PolicyBlock = { kind: "heading" | "paragraph"; text: string };

/**
 * A policy's text as the page shows it. The admin writes plain text, never markup: a blank line
 * starts a new paragraph and a line starting with "## " is a heading. Everything is rendered as
 * escaped text, so nothing an admin types can run in a buyer's browser.
 */
export function policyBlocks(text: string): PolicyBlock[] {
  const blocks: PolicyBlock[] = [];
  let lines: string[] = [];
  const flush = () => {
    const paragraph = lines.join("\n").trim();
    if (paragraph) blocks.push({ kind: "paragraph", text: paragraph });
    lines = [];
  };
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    const heading = /^##\s+(.*\S)\s*$/.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: "heading", text: heading[1] });
    } else if (line.trim() === "") flush();
    else lines.push(line.trim());
  }
  flush();
  return blocks;
}

/** Whether a policy's text would show anything on its page. */
export function hasPolicyText(text: string): boolean {
  return text.trim() !== "";
}
