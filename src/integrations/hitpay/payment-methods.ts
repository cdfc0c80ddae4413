// HitPay's payment-method codes, the values of a payment request's `payment_methods[]`. A code
// HitPay does not know is refused with a 422 ("The selected payment methods is invalid."), so the
// configuration is checked against this list at start-up and the simulator refuses as HitPay does.
//
// Source: HitPay's payment methods reference, Singapore table (the shop charges SGD),
// https://docs.hitpayapp.com/apis/guide/payment-methods-reference, as summarised in
// external-apis.md §3.2. There is no `grabpay` (GrabPay is `grabpay_direct`) and ShopBack PayLater
// is `shopback`, whatever older guides and third-party lists say.

/** Every code of HitPay's Singapore payment methods reference. */
export const HITPAY_PAYMENT_METHOD_CODES = [
  "card",
  "card_adyen",
  "card_present",
  "card_present_adyen",
  "paynow_online",
  "giro",
  "grabpay_direct",
  "grabpay_paylater",
  "shopee_pay",
  "shopee_pay_later",
  "shopback",
  "atome",
  "atome_qr",
  "wechat_pay",
  "upi_qr",
] as const;

/** A code of HITPAY_PAYMENT_METHOD_CODES. */
export type HitPayPaymentMethod = typeof HITPAY_PAYMENT_METHOD_CODES[number];

/**
 * The only methods HitPay's sandbox offers: `card` and `paynow_online` (the reference's "Sandbox
 * Testing"), and `atome` and `atome_qr`, which its current methods table marks "Sandbox: Yes"
 * (external-apis.md §3.2).
 */
export const HITPAY_SANDBOX_PAYMENT_METHOD_CODES: readonly HitPayPaymentMethod[] = [
  "card",
  "paynow_online",
  "atome",
  "atome_qr",
];

/**
 * The default offer behind the spec's paynow choice (§9 "PayNow / GrabPay / ShopeePay Later /
 * Atome"): PayNow, GrabPay, ShopeePay and Atome. ShopeePay Later is `shopee_pay_later`, one
 * HITPAY_PAYMENT_METHODS entry away.
 */
export const DEFAULT_HITPAY_PAYMENT_METHODS: readonly HitPayPaymentMethod[] = [
  "paynow_online",
  "grabpay_direct",
  "shopee_pay",
  "atome",
];
