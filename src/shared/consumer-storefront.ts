// What the consumer storefront's server and islands share: the item and order shapes, the billing
// checks (spec §5) and the result page's texts per status (spec §2). Pure: no I/O.

import type { NamedLink } from "./game-types.ts";
import { POLICY_PAGES } from "./store-policies.ts";
import { DELIVERED, FAILED, REFUNDED, RETRYABLE_STATES } from "./order-lifecycle.ts";

/** One item a consumer can buy, priced on the server with the consumer markup and discount. */
export interface ConsumerItemDto {
  /** The supplier's denomination key: the payment call's `denom`. */
  key: string;
  /** The full consumer-facing name, as the order and the receipt name it. */
  name: string;
  /** The card's title (spec §3 nameConsumer.header; digits get the game currency). */
  header: string;
  /** The card's second line (spec §3 nameConsumer.subheader). */
  subheader: string;
  /** Consumer price in dollars (rounded up to the cent). */
  price: number;
  /** The price without the consumer discount, when the item is discounted; else null. */
  listPrice: number | null;
  image: string;
  isDoubleRecharge: boolean;
}

/** One Mobile Legends package as the top-up page shows it. */
export interface ConsumerPackageDto {
  name: string;
  isOutOfStock: boolean;
  items: ConsumerItemDto[];
}

/** The Mobile Legends game's supplier name; its page and calls keep their spec paths. */
export const MLBB_SUPPLIER_NAME = "mlbb";

/** Mobile Legends' page, /consumers/mobile-legends, whatever the game is named. */
const MLBB_PAGE_SLUG = "mobile-legends";

/**
 * The storefront's own pages under /consumers/: the order lookup and the policy pages. No game's
 * page may take one of these addresses.
 */
export const RESERVED_CONSUMER_SLUGS: readonly string[] = [
  "order",
  ...POLICY_PAGES.map((p) => p.slug),
];

/**
 * The last part of a game's consumer page address, /consumers/{slug}: its name in lowercase
 * letters and digits joined by hyphens ("Honkai: Star Rail" → "honkai-star-rail"); a name with
 * no such letters uses the game's id, and a name that is one of the storefront's own pages gets
 * "-top-up" ("Order" → "order-top-up"). The admin's preview link and the server agree through this.
 */
export function consumerPageSlug(game: { id: string; name: string; supplierName: string }): string {
  if (game.supplierName === MLBB_SUPPLIER_NAME) return MLBB_PAGE_SLUG;
  const slug = game.name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  if (RESERVED_CONSUMER_SLUGS.includes(slug)) return `${slug}-top-up`;
  return slug || game.id.toLowerCase();
}

/** What the order form says about where to find the account's details (spec §3 Game). */
export interface ConsumerAccountHelp {
  /** Where the User ID (and server, character name) are found, for every game. */
  text: string;
  /** The game's supplier notes as the admin keeps them (Edit game › Settings); "" when none. */
  note: string;
  /** The game's instructional image (a picture of where the ID is shown); "" when none. */
  image: string;
}

/** The help under the User ID field, made from what the game's form asks for. */
export function accountHelpText(
  form: Pick<ConsumerGameForm, "name" | "requiresServerID" | "servers" | "requiresCharacterName">,
): string {
  const typedServer = form.requiresServerID && form.servers.length === 0;
  const parts = [
    `Find your User ID${typedServer ? " and Server ID" : ""} on your profile in ${form.name}.`,
  ];
  if (form.requiresServerID && !typedServer) parts.push("Choose the server your account plays on.");
  if (form.requiresCharacterName) {
    parts.push("Type your character name exactly as the game shows it.");
  }
  return parts.join(" ");
}

/** A typed account field of the order form. */
export type AccountField = "userid" | "serverid" | "characterName";

/**
 * Spec §5: Verify does nothing while User ID (or a required Server ID or Character Name) is
 * empty. What it says instead, per empty field, so the buyer sees why nothing happened.
 */
export function missingAccountFields(
  form: Pick<ConsumerGameForm, "requiresServerID" | "servers" | "requiresCharacterName">,
  account: { userid: string; serverid: string; characterName: string },
): { field: AccountField; message: string }[] {
  const missing: { field: AccountField; message: string }[] = [];
  if (!account.userid.trim()) {
    missing.push({ field: "userid", message: "Please enter your User ID" });
  }
  if (form.requiresServerID && !account.serverid.trim()) {
    missing.push({
      field: "serverid",
      message: form.servers.length ? "Please select your server" : "Please enter your Server ID",
    });
  }
  if (form.requiresCharacterName && !account.characterName.trim()) {
    missing.push({ field: "characterName", message: "Please enter your Character Name" });
  }
  return missing;
}

/** What a game's order form asks for, in its supplier's order (User ID, Server, Character Name). */
export interface ConsumerGameForm {
  /** The key of the game's verify and payment calls: "mlbb" for Mobile Legends, else its slug. */
  apiKey: string;
  name: string;
  requiresServerID: boolean;
  /** Named servers as [label, value], sorted by label; empty: the Server ID is typed. */
  servers: [string, string][];
  requiresCharacterName: boolean;
  /** Where to find the account's details: help text, the supplier's note, the image. */
  help: ConsumerAccountHelp;
}

/** A card of the /consumers grid. */
export interface ConsumerGameCard {
  name: string;
  tagline: string;
  image: string;
  /** The game's top-up page. */
  href: string;
  isOutOfStock: boolean;
}

/** A titled list of the admin's links for a game (Codashop-style "guides", "esports", …). */
export interface ConsumerLinkList {
  title: string;
  links: NamedLink[];
}

/** Everything a game's consumer page shows: the form, the items, and the game's own story. */
export interface ConsumerGamePage {
  slug: string;
  name: string;
  tagline: string;
  description: string;
  /** What the game's items are counted in ("Diamonds", "UC"); "" when the item names say it. */
  currency: string;
  image: string;
  isOutOfStock: boolean;
  /** Only an admin's preview shows a game consumers cannot see; the page says so. */
  isHiddenFromConsumers: boolean;
  aboutThisGame: string;
  faq: { question: string; answer: string }[];
  platforms: string[];
  /** The official website, Fandom and Reddit, then the admin's five lists: those filled in. */
  linkLists: ConsumerLinkList[];
  form: ConsumerGameForm;
  /**
   * Mobile Legends: every package (Verify decides which one the account buys from). Any other
   * game: one package named "" holding its items.
   */
  packages: ConsumerPackageDto[];
  /** The package whose items show before Verify. */
  previewPackage: string;
}

/**
 * A game page's meta description: the admin's description, else one made of what the page sells
 * (the game, its currency and the lowest price shown before Verify) and how buying works. Not the
 * tagline: the page and the /consumers tile already show it, and search results would repeat it.
 * Cut to the length search engines show (about 160 characters).
 */
export function consumerPageDescription(
  page: Pick<ConsumerGamePage, "name" | "description" | "currency" | "packages" | "previewPackage">,
): string {
  const prices = (page.packages.find((p) => p.name === page.previewPackage)?.items ?? [])
    .map((item) => item.price);
  const from = prices.length ? ` from $${Math.min(...prices).toFixed(2)}` : "";
  const what = [page.name, page.currency.trim()].filter(Boolean).join(" ");
  const text = page.description.trim() ||
    `Top up ${what}${from}. Enter your User ID, check the account name with Verify and pay ` +
      "securely; most orders arrive in minutes.";
  const flat = text.replace(/\s+/g, " ");
  return flat.length <= 160 ? flat : `${flat.slice(0, 157).replace(/\s+\S*$/, "")}…`;
}

/**
 * The FAQ as schema.org FAQPage structured data, for a `<script type="application/ld+json">`
 * (a data block: it never runs, so the CSP's script rules do not apply). `<`, `>` and `&` are
 * escaped so no answer can close the script element. Null when there is no FAQ.
 */
export function faqStructuredData(faq: { question: string; answer: string }[]): string | null {
  if (faq.length === 0) return null;
  return JSON.stringify({
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: faq.map((entry) => ({
      "@type": "Question",
      name: entry.question,
      acceptedAnswer: { "@type": "Answer", text: entry.answer },
    })),
  }).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** POST /api/consumers/verify_id/{game}: the server's decision and the account's name. */
export interface ConsumerVerifyAnswer {
  choice:
    | { kind: "ok"; package?: string }
    | { kind: "out_of_stock"; package?: string }
    | { kind: "invalid" };
  userName: string;
  /** Whether the shop takes a bank transfer now (Settings holds an account to pay into). */
  bankTransfer: boolean;
}

/** The billing form of the review step (spec §2 Review Your Order). */
export interface BillingDetails {
  firstName: string;
  lastName: string;
  phone: string;
  email: string;
  confirmEmail: string;
  /** "paynow" (PayNow / GrabPay / ShopeePay Later / Atome) or "manual"; "" when none chosen. */
  paymentMethod: string;
}

/** The billing field a check is about, so the page can focus it. */
export type BillingField = keyof BillingDetails;

/**
 * A phone number "with country code" (spec §5): a leading + and 8 to 15 digits in all (E.164's
 * most), spaces, dashes and brackets between them allowed. "12345" has no country code.
 */
const PHONE_PATTERN = /^\+(?:[\s()-]*\d){8,15}[\s()-]*$/;

/** The spec's {email} pattern: something@something.something, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Spec §5 billing checks, in the spec's order, each with its exact message. */
export const BILLING_CHECKS: readonly {
  field: BillingField;
  message: string;
  fails: (b: BillingDetails) => boolean;
}[] = [
  { field: "firstName", message: "Please enter first name", fails: (b) => !b.firstName.trim() },
  {
    field: "phone",
    message: "Please enter phone number with country code",
    fails: (b) => !PHONE_PATTERN.test(b.phone.trim()),
  },
  { field: "email", message: "Please enter email address", fails: (b) => !b.email.trim() },
  {
    field: "email",
    message: "Please enter a valid email address",
    fails: (b) => !EMAIL_PATTERN.test(b.email.trim()),
  },
  {
    field: "confirmEmail",
    message: "Please enter confirm email address",
    fails: (b) => !b.confirmEmail.trim(),
  },
  {
    field: "confirmEmail",
    message: "Email addresses do not match",
    fails: (b) => b.email.trim().toLowerCase() !== b.confirmEmail.trim().toLowerCase(),
  },
  {
    field: "paymentMethod",
    message: "Please select payment method",
    fails: (b) => b.paymentMethod !== "paynow" && b.paymentMethod !== "manual",
  },
];

/** The first billing check that fails (spec §5 order), or null when the form may be sent. */
export function firstBillingProblem(
  billing: BillingDetails,
): { field: BillingField; message: string } | null {
  const failed = BILLING_CHECKS.find((check) => check.fails(billing));
  return failed ? { field: failed.field, message: failed.message } : null;
}

/** Spec §3 Consumer order draft, kept in local storage between the payment call and the result page. */
export interface ConsumerOrderDraft {
  consumer: { name: string; email: string; phone: string };
  game: string;
  userid: string;
  serverid: string;
  /** The chosen server's name, for a game that lists its servers ("" otherwise). */
  serverName?: string;
  denom: string;
  userName: string;
  itemName: string;
  /** Dollars. */
  amount: number;
  /** Not known to the browser (the supplier cost stays on the server); always null. */
  cost: null;
  /** The Mobile Legends package; "" for other games. */
  package: string;
  orderID: string;
  gameName: string;
  status: string;
}

/** The bank account a manual transfer goes to (admin Settings); blank fields when not set. */
export interface BankTransferDetails {
  bankName: string;
  accountName: string;
  accountNumber: string;
}

/** True when Settings holds an account number to transfer to. */
export function hasBankAccount(details: BankTransferDetails): boolean {
  return details.accountNumber.trim() !== "";
}

/** What the result page and the buyer's email say while a manual order waits for its transfer. */
export const BANK_TRANSFER_TEXTS = {
  heading: "Pay by bank transfer",
  lead: "Please transfer the amount to the account below, with your order number as the " +
    "reference. We send your order as soon as our staff confirm your payment.",
  noAccount: "Please contact us on WhatsApp or Telegram for our bank details, and use your " +
    "order number as the transfer's reference.",
};

/** The rows of the transfer instructions: the account, the amount and the reference. */
export function bankTransferRows(
  details: BankTransferDetails,
  orderId: string,
  amount: string,
): [string, string][] {
  if (!hasBankAccount(details)) return [["Amount", amount], ["Reference", orderId]];
  return [
    ["Bank", details.bankName],
    ["Account Name", details.accountName],
    ["Account Number", details.accountNumber],
    ["Amount", amount],
    ["Reference", orderId],
  ];
}

/** The local storage key of the draft. */
export const ORDER_DRAFT_KEY = "consumerOrderDraft";

/**
 * What the result page and the order lookup show about one order. The player's fields are absent
 * where the viewer holds only the payment's reference (HitPay's redirect opened in another
 * browser): the order's number, game, item, amount and status are all it shows then.
 */
export interface ConsumerOrderView {
  orderID: string;
  gameName: string;
  userName?: string;
  userid?: string;
  serverid?: string;
  /** The name of the server the buyer chose, where the game lists its servers by name. */
  serverName?: string;
  itemName: string;
  /** Dollars. */
  amount: number;
  status: string;
  /** While a manual order awaits its transfer: the account to pay into (status poll). */
  bankTransfer?: BankTransferDetails;
}

/** The lifecycle's RETRYABLE_STATES: the result page offers "Try again" on these. */
export const RETRYABLE_STATUSES: readonly string[] = RETRYABLE_STATES;

/** Statuses after which the result page stops polling (spec §4, and the retryable ones). */
export const FINAL_STATUSES: readonly string[] = [
  DELIVERED,
  FAILED,
  REFUNDED,
  ...RETRYABLE_STATES,
];

/**
 * Whether the result page offers "Check again" once polling stopped at `status`: while the order
 * may still change. Polling stops on error (spec §4), yet an order in error is not over for the
 * buyer: the shop refunds a paid one or delivers it after a check in Needs review.
 */
export function offersCheckAgain(status: string): boolean {
  return status === FAILED || !FINAL_STATUSES.includes(status);
}

const STATUS_LABELS: Record<string, string> = {
  "successful": "Successful",
  "pending-customer-payment": "Pending Payment",
  "payment-received-pending-disbursement": "Payment Received. Pending Processing",
  "error": "Error",
  "refunded": "Refunded",
  "cancelled": "Cancelled",
  "payment-failed": "Payment Failed",
  "payment-cancelled": "Payment Cancelled",
  "payment-expired": "Payment Expired",
};

/** Spec §4 consumer order status labels; an unknown status shows raw. */
export function consumerStatusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status;
}

/** Headline, sub text and tip of the result page. */
export interface ResultTexts {
  headline: string;
  sub: string;
  tip: string;
}

/**
 * Spec §2 result page table. `cancelled` and the payment-… states are ours (orders nobody paid):
 * they must not say "being processed", since nothing will happen to them unless the buyer acts.
 */
export function resultTextsFor(
  status: string,
  options: { awaitingTransfer?: boolean } = {},
): ResultTexts {
  if (status === "pending-customer-payment" && options.awaitingTransfer) {
    // Spec §2's row for this status speaks of a payment method rejected at the payment page; a
    // bank transfer has no such page, and is simply not made yet.
    return {
      headline: "Thank you for your order.",
      sub: "Please pay by bank transfer: the account, the amount and the reference are below.",
      tip: "Transfers are usually confirmed within a few hours during business hours; we email " +
        "you when your top-up is delivered.",
    };
  }
  switch (status) {
    case "successful":
      return {
        headline: "Thank you for your purchase.",
        sub: "Your order has been successfully delivered to your account.",
        tip: "Tip: if the items do not show yet, restart the game to see them.",
      };
    case "pending-customer-payment":
      return {
        headline: "Payment has not been completed.",
        sub: "Your payment method might have been rejected.",
        tip: "Tip: check your payment method or your bank app, then try again or contact us.",
      };
    case "payment-failed":
      return {
        headline: "Payment failed.",
        sub: "Your payment did not go through, so this order has not been paid.",
        tip: "Tip: try again, or choose another payment method. Contact us if you were charged.",
      };
    case "payment-cancelled":
      return {
        headline: "Payment cancelled.",
        sub: "You left the payment page before paying, so this order has not been paid.",
        tip: "Tip: try again when you are ready. Contact us if you were charged.",
      };
    case "payment-expired":
      return {
        headline: "Payment expired.",
        sub: "The time to pay for this order ran out, so it has not been paid.",
        tip: "Tip: try again for a new payment page. Contact us if you were charged.",
      };
    case "refunded":
      return {
        headline: "Your payment has been refunded.",
        sub: "We could not complete this order, so we returned your payment. We have emailed you " +
          "the details.",
        tip: "Tip: your bank or wallet may take a few days to show the refund. Contact us if it " +
          "does not arrive.",
      };
    case "cancelled":
      return {
        headline: "This order has been cancelled.",
        sub: "No payment was received for this order.",
        tip: "Tip: place a new order, or contact us if you were charged.",
      };
    default:
      return {
        headline: "Thank you for your purchase.",
        sub:
          "Your order is being processed. You may refresh this page to check your order status in a few moments' time.",
        tip: "Tip: delivery may take a few minutes at busy times. Contact us if it takes longer.",
      };
  }
}
