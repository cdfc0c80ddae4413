// A cell of the tables that narrow screens stack as cards (.ao-stack in admin-orders.css): there
// the cell shows its column's name beside its value, so the value is kept in one box.
import type { ComponentChildren } from "preact";

export interface StackCellProps {
  /** The column's name, shown beside the value on narrow screens. */
  label: string;
  /** Classes of the value's box, e.g. "rs-nowrap". */
  class?: string;
  children: ComponentChildren;
}

export function StackCell({ label, class: className, children }: StackCellProps) {
  return (
    <td data-label={label}>
      <div class={className}>{children}</div>
    </td>
  );
}
