// The order's timeline under the result page's order block: each step with its time in Singapore
// time (the business's clock, as the receipts show it), the step it waits at now, or how it
// ended. Texts are src/shared/consumer-order-timeline.ts's.
import {
  type TimelineEntry,
  type TimelineEntryState,
  timelineLines,
} from "../../shared/consumer-order-timeline.ts";
import { BUSINESS_TIME_NOTE, formatBusinessDate } from "../../shared/business-time.ts";
import { dollarsToDollarString } from "../lib/format.ts";
import { CheckIcon, CrossIcon, HourglassIcon } from "../lib/icons.tsx";

export interface OrderTimelineProps {
  /** The entries of GET /api/order/{id}/timeline, oldest first. */
  entries: TimelineEntry[];
}

const ICON: Record<TimelineEntryState, typeof CheckIcon> = {
  done: CheckIcon,
  current: HourglassIcon,
  stopped: CrossIcon,
};

export function OrderTimeline({ entries }: OrderTimelineProps) {
  const lines = timelineLines(entries, (at) => formatBusinessDate(at), dollarsToDollarString);
  return (
    <section class="panel ct-timeline" aria-labelledby="ct-timeline-heading">
      <h2 id="ct-timeline-heading">Order progress</h2>
      <ol>
        {lines.map((line, i) => {
          const Icon = ICON[line.state];
          return (
            <li key={`${line.kind}-${i}`} class={`ct-timeline-${line.state}`}>
              <Icon size={18} class="ct-timeline-icon" />
              <div>
                <p class="ct-timeline-label">{line.label}</p>
                {line.detail && <p class="muted ct-timeline-detail">{line.detail}</p>}
                {line.at && (
                  <time class="muted" dateTime={line.at}>{formatBusinessDate(line.at)}</time>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      <p class="muted ct-timeline-note">{BUSINESS_TIME_NOTE}</p>
    </section>
  );
}
