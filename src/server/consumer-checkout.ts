import type { ConsumerCheckoutContext } from "../domain/payments/consumer-checkout.ts";
import { siteUrlOf } from "./http.ts";

/**
 * What a checkout needs for one request (a new payment or a Try again): this process's clients,
 * the site's own address, and the shop's HitPay settings.
 */
export function consumerCheckoutOf(locals: App.Locals, url: URL): ConsumerCheckoutContext {
  const { config } = locals.app;
  return {
    db: locals.app.db,
    suppliers: locals.app.suppliers(),
    hitpay: locals.app.hitpay(),
    siteUrl: siteUrlOf(locals, url),
    paymentMethods: config.hitpay.paymentMethods,
    paymentExpiryMinutes: config.hitpay.expiryMinutes,
  };
}
