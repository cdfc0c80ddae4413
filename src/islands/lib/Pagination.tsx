// Page buttons for the paged tables (spec §9: sibling range 2 on desktop; the admin orders tabs
// narrow it to 1 below 768 px and 0 below 465 px).
import "../../styles/pagination.css";
export interface PaginationProps {
  /** The page shown, from 1. */
  page: number;
  /** How many pages there are. */
  pageCount: number;
  /** Called with the page to show. */
  onPage: (page: number) => void;
  /** Pages either side of the current one that stay visible; SIBLING_RANGE unless given. */
  siblings?: number;
}

/** Pages either side of the current one that stay visible on desktop. */
export const SIBLING_RANGE = 2;

/** The first and last page, the current one with its siblings, and gaps ("…") between. */
export function pageItems(
  page: number,
  pageCount: number,
  siblings = SIBLING_RANGE,
): (number | "gap")[] {
  const from = Math.max(1, page - siblings);
  const to = Math.min(pageCount, page + siblings);
  const items: (number | "gap")[] = [];
  if (from > 1) items.push(1);
  if (from > 2) items.push("gap");
  for (let p = from; p <= to; p++) items.push(p);
  if (to < pageCount - 1) items.push("gap");
  if (to < pageCount) items.push(pageCount);
  return items;
}

export function Pagination({ page, pageCount, onPage, siblings }: PaginationProps) {
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
      {pageItems(page, pageCount, siblings).map((item, i) =>
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
