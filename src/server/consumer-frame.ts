// What every consumer page's frame (ConsumerLayout) needs besides the page's own content: the chat
// links from configuration and the footer's policy links and company details.
import type { AppContext } from "./context.ts";
import {
  demoPlaceholderNote,
  storefrontFooter,
  storePolicyPage,
} from "../domain/catalogue/store-policies.ts";
import { POLICY_PAGES, type PolicyKey, type StorefrontFooter } from "../shared/store-policies.ts";

export interface ConsumerFrame {
  whatsappUrl: string;
  telegramUrl: string;
  footer: StorefrontFooter;
}

/** The frame's props for a consumer page: spread them on ConsumerLayout or ConsumerGameView. */
export async function consumerFrame(app: AppContext): Promise<ConsumerFrame> {
  return {
    ...app.config.contact,
    footer: await storefrontFooter(app.db, { demo: app.config.mode === "demo" }),
  };
}

/** A policy page's props for PolicyPage, or undefined while the policy has no text (a 404). */
export async function policyPageProps(app: AppContext, key: PolicyKey) {
  const page = await storePolicyPage(app.db, key, { demo: app.config.mode === "demo" });
  if (!page) return undefined;
  const slug = POLICY_PAGES.find((p) => p.key === key)!.slug;
  return {
    page,
    placeholderNote: demoPlaceholderNote(page.title),
    canonicalUrl: app.config.publicUrl && `${app.config.publicUrl}/consumers/${slug}`,
    ...await consumerFrame(app),
  };
}
