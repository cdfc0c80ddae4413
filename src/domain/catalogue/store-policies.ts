// The shop's Terms of Service, Privacy Policy, Refund Policy and company details: kept in the
// settings table, written by admins in Settings (audited), shown to buyers at /consumers/{slug}
// and in the consumer footer. A page only exists once it has text: production never links or
// serves an empty policy. The demo, which has none of the shop's own words, shows placeholders
// that say so; they are never stored, so a database that goes live carries none of them.

import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { getSetting, putSetting, settingVersion } from "../../db/repositories/settings.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import { EMAIL_PATTERN } from "../../shared/consumer-storefront.ts";
import {
  type CompanyDetails,
  hasPolicyText,
  POLICY_PAGES,
  type PolicyBlock,
  policyBlocks,
  type PolicyKey,
  type StorefrontFooter,
  type StorePolicies,
} from "../../shared/store-policies.ts";
import { auditActor, type OperatorActor } from "../actor.ts";

/** Settings key of the policies and company details. */
export const STORE_POLICIES_KEY = "store_policies";

const policyText = (label: string) =>
  z.string().trim().max(30_000, `${label} is too long (30,000 characters at most)`);
const line = (label: string, max = 200) =>
  z.string().trim().max(max, `${label} is too long (${max} characters at most)`);

/** The body of PUT /api/settings/store-policies; every field may stay blank. */
export const StorePoliciesSchema = z.object({
  terms: policyText("Terms of Service"),
  privacy: policyText("Privacy Policy"),
  refunds: policyText("Refund Policy"),
  company: z.object({
    name: line("Company name"),
    registrationNumber: line("Registration number"),
    address: line("Address", 500),
    email: line("Contact email", 254).refine(
      (email) => email === "" || EMAIL_PATTERN.test(email),
      "Contact email must be a valid email address",
    ),
  }),
});

const EMPTY: StorePolicies = {
  terms: "",
  privacy: "",
  refunds: "",
  company: { name: "", registrationNumber: "", address: "", email: "" },
};

/** What a placeholder page says first, so nobody takes it for the shop's own words. */
export function demoPlaceholderNote(title: string): string {
  return `Demo placeholder: this shop runs in demo mode, and this is not a real ${title}. An ` +
    "admin replaces this text with the shop's own in Admin → Settings → Store Policies.";
}

/** What the demo shows where the shop has not written a page yet: placeholders saying so. */
const DEMO_POLICIES: Record<PolicyKey, string> = {
  terms: [
    "## What we sell",
    "Top-ups of in-game currency and items, delivered to the game account whose User ID you " +
    "enter. Prices are shown in US dollars before you pay and do not change after you pay.",
    "## Your account details",
    "You are responsible for the User ID and server you enter. Verify shows the account name " +
    "before you pay: check that it is yours.",
    "## Contact",
    "Questions about an order: chat with us on WhatsApp or Telegram, with your order number.",
  ].join("\n\n"),
  privacy: [
    "## What we keep",
    "Your name, email address and phone number from the billing form, the game account you top " +
    "up and your order's details. We never ask for your game password.",
    "## Why",
    "To deliver your order, send its receipt, answer your questions and keep the records the law " +
    "asks of a shop. Payment details are handled by the payment provider, not stored by us.",
  ].join("\n\n"),
  refunds: [
    "## When you get your money back",
    "If an order cannot be delivered, it is refunded in full to the way you paid.",
    "## When we cannot refund",
    "Once a top-up has been delivered to the account you entered it cannot be taken back, so an " +
    "order sent to a wrong User ID that belongs to someone else cannot be refunded. Press Verify " +
    "and check the account name before you pay.",
  ].join("\n\n"),
};

const DEMO_COMPANY: CompanyDetails = {
  name: "TopUp Demo (placeholder company)",
  registrationNumber: "Demo placeholder",
  address: "Demo placeholder address, set in Admin → Settings",
  email: "support@topup.test",
};

let policyWrites = 0;

/** How many times this process saved the policies: the page cache reads its version again then. */
export function storePolicyWritesHere(): number {
  return policyWrites;
}

/** What the consumer pages made from the policies depend on; changes with every save. */
export async function storePoliciesVersion(db: Db): Promise<string> {
  return await settingVersion(db, STORE_POLICIES_KEY);
}

/** The policies and company details as saved; blank fields when none were. */
export async function readStorePolicies(db: Db): Promise<StorePolicies> {
  const stored = StorePoliciesSchema.safeParse(await getSetting(db, STORE_POLICIES_KEY));
  return stored.success ? stored.data : EMPTY;
}

/** Saves the policies and company details with an audit row in the same transaction. */
export async function saveStorePolicies(
  db: Db,
  input: StorePolicies,
  actor: OperatorActor,
): Promise<StorePolicies> {
  const policies = StorePoliciesSchema.parse(input);
  await db.transaction().execute(async (trx) => {
    const before = await readStorePolicies(trx);
    await putSetting(trx, STORE_POLICIES_KEY, policies, actor.name);
    await insertAudit(trx, {
      ...auditActor(actor),
      action: "settings.update",
      targetType: "settings",
      targetId: STORE_POLICIES_KEY,
      before,
      after: policies,
    });
  });
  policyWrites++;
  return policies;
}

/** The policies as buyers see them: the saved ones, and in the demo placeholders for the rest. */
async function shownPolicies(db: Db, demo: boolean): Promise<StorePolicies> {
  const saved = await readStorePolicies(db);
  if (!demo) return saved;
  const company = saved.company.name ? saved.company : DEMO_COMPANY;
  return {
    terms: saved.terms || DEMO_POLICIES.terms,
    privacy: saved.privacy || DEMO_POLICIES.privacy,
    refunds: saved.refunds || DEMO_POLICIES.refunds,
    company,
  };
}

/** The consumer footer: a link to each policy page with text, and the company once named. */
export async function storefrontFooter(
  db: Db,
  options: { demo: boolean },
): Promise<StorefrontFooter> {
  const policies = await shownPolicies(db, options.demo);
  return {
    links: POLICY_PAGES.filter((page) => hasPolicyText(policies[page.key]))
      .map((page) => ({ href: `/consumers/${page.slug}`, title: page.title })),
    company: policies.company.name ? policies.company : null,
  };
}

/**
 * A policy page as /consumers/{slug} shows it; undefined (a 404) while it has no text.
 * `placeholder`: the demo's text, which the page marks as such.
 */
export async function storePolicyPage(
  db: Db,
  key: PolicyKey,
  options: { demo: boolean },
): Promise<{ title: string; blocks: PolicyBlock[]; placeholder: boolean } | undefined> {
  const page = POLICY_PAGES.find((p) => p.key === key)!;
  const saved = (await readStorePolicies(db))[key];
  const placeholder = options.demo && !hasPolicyText(saved);
  const text = placeholder ? DEMO_POLICIES[key] : saved;
  if (!hasPolicyText(text)) return undefined;
  return { title: page.title, blocks: policyBlocks(text), placeholder };
}
