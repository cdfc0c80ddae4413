/** A reseller screen's list that failed to load: the failure's text and a way to try again. */
export function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div class="rs-banner rs-banner-bad" role="alert">
      <span>{message}</span>
      <button type="button" class="btn-secondary" onClick={onRetry}>Try again</button>
    </div>
  );
}
