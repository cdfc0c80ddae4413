// What the buyer sees happen to a consumer order, below the result page's order block (beyond the
// spec, whose status texts stay as they are above it): the steps with their times, the step it is
// at now, or how it ended. The server builds it (src/domain/payments/consumer-order-timeline.ts);
// the result page and the order lookup render it with these texts. Pure: no I/O.

/** How long a check in Needs review usually takes, in minutes, and whether that was measured. */
export interface UsualReviewTime {
  minutes: number;
  /**
   * True: the median of the reviews that ended in the last 30 days. False: no review ended then,
   * and the figure is the shop's standing estimate.
   */
  measured: boolean;
}

/**
 * One entry of the timeline. `at` is an ISO instant, null where the shop holds no record of when
 * (an order paid before its payment was recorded with a time). The first group happened; the
 * second is where the order is now (at most one, last); the third is how it ended.
 */
export type TimelineEntry =
  | { kind: "placed"; at: string }
  | { kind: "paid"; at: string | null }
  | { kind: "sent"; at: string | null }
  | { kind: "delivered"; at: string }
  | { kind: "awaiting-payment" }
  | { kind: "sending" }
  | { kind: "delivering" }
  | { kind: "in-review"; since: string; usual: UsualReviewTime }
  | { kind: "not-paid"; at: string }
  | { kind: "not-delivered"; at: string | null }
  /** Money given back after a failed delivery: one entry per refund, amount in dollars. */
  | { kind: "refunded"; at: string; amount: number };

export type TimelineEntryKind = TimelineEntry["kind"];

/** GET /api/order/{id}/timeline: the order's entries, oldest first, and what the buyer may do. */
export interface ConsumerOrderTimeline {
  /** The order's status when the timeline was read. */
  status: string;
  entries: TimelineEntry[];
  /** A HitPay order still awaiting payment: "I have paid" asks HitPay about it at once. */
  canCheckPayment: boolean;
}

/** The estimate shown while no review ended in the last 30 days to measure one by. */
export const DEFAULT_USUAL_REVIEW_MINUTES = 240;

/** What the buyer reads while the order waits in Needs review. */
export const IN_REVIEW_TEXT = "We are checking this order with the supplier";

/** How an entry is drawn: a step done, the step the order is at, or an end without delivery. */
export type TimelineEntryState = "done" | "current" | "stopped";

const STATE_OF: Record<TimelineEntryKind, TimelineEntryState> = {
  "placed": "done",
  "paid": "done",
  "sent": "done",
  "delivered": "done",
  "refunded": "done",
  "awaiting-payment": "current",
  "sending": "current",
  "delivering": "current",
  "in-review": "current",
  "not-paid": "stopped",
  "not-delivered": "stopped",
};

/** A timeline entry as the page shows it. */
export interface TimelineLine {
  kind: TimelineEntryKind;
  state: TimelineEntryState;
  label: string;
  /** A second line under the label; "" when none. */
  detail: string;
  /** When it happened (ISO), shown formatted; null when the entry has no time to show. */
  at: string | null;
}

/**
 * A duration rounded up to what a buyer reads: minutes in fives below an hour, whole hours below
 * two days, then whole days ("45 minutes", "2 hours", "3 days").
 */
export function durationText(minutes: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (minutes <= 55) return plural(Math.max(5, Math.ceil(minutes / 5) * 5), "minute");
  const hours = Math.ceil(minutes / 60);
  if (hours < 48) return plural(hours, "hour");
  return plural(Math.ceil(hours / 24), "day");
}

/** The usual time of a check, saying whether it was measured or is the standing estimate. */
export function usualReviewText(usual: UsualReviewTime): string {
  const within = `Usually within ${durationText(usual.minutes)}`;
  return usual.measured
    ? `${within} (the typical time over the last 30 days).`
    : `${within} (our standard estimate).`;
}

/**
 * The lines of a timeline in its order. `formatDate` shows an instant (the page: Singapore time),
 * `formatDollars` an amount in dollars.
 */
export function timelineLines(
  entries: readonly TimelineEntry[],
  formatDate: (iso: string) => string,
  formatDollars: (amount: number) => string,
): TimelineLine[] {
  return entries.map((entry) => {
    const line = (label: string, at: string | null, detail = ""): TimelineLine => ({
      kind: entry.kind,
      state: STATE_OF[entry.kind],
      label,
      detail,
      at,
    });
    switch (entry.kind) {
      case "placed":
        return line("Order placed", entry.at);
      case "paid":
        return line("Paid", entry.at);
      case "sent":
        return line("Sent to the supplier", entry.at);
      case "delivered":
        return line("Delivered", entry.at);
      case "awaiting-payment":
        return line("Waiting for your payment", null);
      case "sending":
        return line("Being sent to the supplier", null);
      case "delivering":
        return line("Waiting for the supplier to deliver", null);
      case "in-review":
        return line(
          IN_REVIEW_TEXT,
          null,
          `${usualReviewText(entry.usual)} Checking since ${formatDate(entry.since)}.`,
        );
      case "not-paid":
        return line("Not paid", entry.at);
      case "not-delivered":
        return line("Not delivered", entry.at);
      case "refunded":
        return line(
          `Refunded ${formatDollars(entry.amount)} on ${formatDate(entry.at)}`,
          null,
        );
    }
  });
}
