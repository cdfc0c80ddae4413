// Cells of the orders tables, the reseller's and the admin's (spec §2 Orders): the order id with
// its info popup, the date, the user with its ids, and the status with its refresh button.
import type { ComponentChildren } from "preact";
import { InfoPopup } from "./InfoPopup.tsx";
import { formatDate } from "./order-format.ts";
import { StatusLabel } from "./icon-text.tsx";
import { RefreshIcon } from "./icons.tsx";

export interface DetailProps {
  /** What the value is, e.g. "User ID". */
  label: string;
  /** The value; an empty one shows "-". */
  value: string;
}

/** One `label: value` line of an info popup. */
export function Detail({ label, value }: DetailProps) {
  return (
    <span class="rs-detail">
      <span class="muted">{label}:</span> {value || "-"}
    </span>
  );
}

export interface OrderIdCellProps {
  /** The order as both lists send it. */
  order: { id: string; supplierOrderID: string; denom: string };
  /** More lines for the popup. */
  children?: ComponentChildren;
}

/** The order id with its info popup: supplier order id and denomination. */
export function OrderIdCell({ order, children }: OrderIdCellProps) {
  return (
    <span class="rs-cell">
      <span class="rs-id">{order.id}</span>
      <InfoPopup label="Order details">
        <Detail label="Order ID" value={order.id} />
        <Detail label="Supplier Order ID" value={order.supplierOrderID} />
        <Detail label="Denomination" value={order.denom} />
        {children}
      </InfoPopup>
    </span>
  );
}

export interface DateTextProps {
  /** The instant, as the API sends it (ISO 8601). */
  iso: string;
}

/**
 * A date as spec §9 shows it ("28 Dec 2025, 12:59 pm"): where its column is narrow it breaks
 * between the day and the time, never inside either.
 */
export function DateText({ iso }: DateTextProps) {
  const text = formatDate(iso);
  const cut = text.lastIndexOf(", ") + 1;
  return (
    <time dateTime={iso}>
      <span class="rs-nowrap">{text.slice(0, cut)}</span>{" "}
      <span class="rs-nowrap">{text.slice(cut + 1)}</span>
    </time>
  );
}

export interface UserCellProps {
  /** The order's game account. */
  order: { userName: string; userID: string; serverID: string };
}

/** The verified user name with a popup of its User ID and Server ID. */
export function UserCell({ order }: UserCellProps) {
  return (
    <span class="rs-cell">
      {order.userName}
      <InfoPopup label="User details">
        <Detail label="User ID" value={order.userID} />
        <Detail label="Server ID" value={order.serverID} />
      </InfoPopup>
    </span>
  );
}

export interface StatusCellProps {
  /** The order's status value (spec §4). */
  status: string;
  /** Whether the status can still change (spec §4: new or pending): shows the refresh button. */
  refreshable: boolean;
  /** This row is being refreshed. */
  busy: boolean;
  /** Any refresh is running: the button waits. */
  disabled: boolean;
  /** Refreshes this order. */
  onRefresh: () => void;
}

/** The status label with a refresh button beside a new or pending status. */
export function StatusCell({ status, refreshable, busy, disabled, onRefresh }: StatusCellProps) {
  return (
    <span class="rs-cell rs-nowrap">
      <StatusLabel status={status} />
      {refreshable && (
        <button
          type="button"
          class="rs-refresh"
          aria-label="Refresh status"
          disabled={disabled}
          aria-busy={busy}
          onClick={onRefresh}
        >
          <RefreshIcon />
        </button>
      )}
    </span>
  );
}
