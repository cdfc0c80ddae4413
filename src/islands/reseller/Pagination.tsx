// Page buttons for the reseller's tables (spec §9: sibling range 2 on desktop).
export interface PaginationProps {
  /** The page shown, from 1. */
  page: number;
  /** How many pages there are. */
  pageCount: number;
  /** Called with the page to show. */
  onPage: (page: number) => void;
}

/** Pages either side of the current one that stay visible. */
export const SIBLING_RANGE = 2;

/** The first and last page, the current one with its siblings, and gaps ("…") between. */
export function pageItems(page: number, pageCount: number): (number | "gap")[] {
  const from = Math.max(1, page - SIBLING_RANGE);
  const to = Math.min(pageCount, page + SIBLING_RANGE);
  const items: (number | "gap")[] = [];
  if (from > 1) items.push(1);
  if (from > 2) items.push("gap");
  for (let p = from; p <= to; p++) items.push(p);
  if (to < pageCount - 1) items.push("gap");
  if (to < pageCount) items.push(pageCount);
  return items;
}

export function Pagination({ page, pageCount, onPage }: PaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav class="rs-pagination" aria-label="Pages">
      <button
        type="button"
        aria-label="Previous page"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        ‹
      </button>
      {pageItems(page, pageCount).map((item, i) =>
        item === "gap" ? <span key={`gap-${i}`} aria-hidden="true">…</span> : (
          <button
            key={item}
            type="button"
            aria-current={item === page ? "page" : undefined}
            onClick={() => onPage(item)}
          >
            {item}
          </button>
        )
      )}
      <button
        type="button"
        aria-label="Next page"
        disabled={page >= pageCount}
        onClick={() => onPage(page + 1)}
      >
        ›
      </button>
    </nav>
  );
}
