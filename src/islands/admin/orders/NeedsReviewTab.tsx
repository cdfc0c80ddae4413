// The Needs review tab of Admin → Orders: the orders waiting for an operator, then the
// failed jobs. OrdersView fetches the queue, as its tab label counts it on every tab.
import type { ReviewOrderDto } from "../../../shared/order-types.ts";
import { LoadFailed } from "../../lib/LoadFailed.tsx";
import type { Loaded } from "../../lib/use-load.ts";
import { FailedJobs } from "./FailedJobs.tsx";
import { ReviewQueue } from "./ReviewQueue.tsx";
import "../../../styles/reseller.css";

export interface NeedsReviewTabProps {
  /** GET /api/orders/review: loading, failed, or the orders waiting. */
  queue: Loaded<ReviewOrderDto[]>;
  /** Fetches the queue again (after a decision, or to retry a failed load). */
  onReload: () => void;
}

export function NeedsReviewTab({ queue, onReload }: NeedsReviewTabProps) {
  return (
    <div role="tabpanel" class="ao-panel">
      {queue.state === "ready"
        ? <ReviewQueue orders={queue.value} onPosted={onReload} />
        : queue.state === "failed"
        ? <LoadFailed message={queue.message} onRetry={onReload} />
        : (
          <p class="muted" role="status">
            <span class="rs-spinner" aria-hidden="true" />Loading...
          </p>
        )}
      <FailedJobs />
    </div>
  );
}
