import type { ConsumerCheckoutContext } from "../domain/payments/consumer-checkout.ts";

/**
 * What a checkout needs for one request (a new payment or a Try again): this process's clients,
 * and the shop's HitPay settings.
 */
export function consumerCheckoutOf(locals: App.Locals): ConsumerCheckoutContext {
  const { config } = locals.app;
  return {
    db: locals.app.db,
    suppliers: locals.app.suppliers(),
    hitpay: locals.app.hitpay(),
    paymentMethods: config.hitpay.paymentMethods,
    paymentExpiryMinutes: config.hitpay.expiryMinutes,
  };
}
