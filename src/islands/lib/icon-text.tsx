// Spec texts that carry a symbol, drawn with the inline SVG icons instead of emoji.
import {
  CheckIcon,
  CrossIcon,
  ElephantIcon,
  GemIcon,
  HourglassIcon,
  MonkeyIcon,
} from "./icons.tsx";
import { isWaitingStatus } from "./order-format.ts";
import { statusLabel } from "../../shared/order-status.ts";
import { supplierDisplayName } from "../../shared/supplier-games.ts";

export interface WithGemProps {
  /** An item name; each word Diamonds in it becomes a gem icon labelled Diamonds. */
  text: string;
}

/** Spec §3: the word Diamonds is displayed as a gem symbol. */
export function WithGem({ text }: WithGemProps) {
  const parts = text.split(/\bDiamonds\b/);
  return (
    <>
      {parts.map((part, i) => (
        <span key={i}>
          {part}
          {i < parts.length - 1 && <GemIcon label="Diamonds" />}
        </span>
      ))}
    </>
  );
}

export interface StatusLabelProps {
  /** The order's status value (spec §4), a reseller's or a consumer's. */
  status: string;
}

/**
 * Spec §4 statuses: the word with a check (successful), an hourglass (new or pending, a consumer's
 * payment or delivery pending included) or a cross (anything else). The word says it all, so the
 * icon is hidden from screen readers.
 */
export function StatusLabel({ status }: StatusLabelProps) {
  const Icon = status === "successful"
    ? CheckIcon
    : isWaitingStatus(status)
    ? HourglassIcon
    : CrossIcon;
  return (
    <span class="rs-status" data-status={status}>
      {statusLabel(status)} <Icon />
    </span>
  );
}

/** The suppliers' marks by the names orders carry (spec §2: 'elephant' and 'monkey'). */
const SUPPLIER_MARKS: Record<string, typeof ElephantIcon> = {
  elephant: ElephantIcon,
  monkey: MonkeyIcon,
};

export interface SupplierNameProps {
  /** The order's supplier: "elephant", "monkey", or another name shown as it is. */
  supplier: string;
}

/** A supplier's own name with the mark the games list uses for it. */
export function SupplierName({ supplier }: SupplierNameProps) {
  const Mark = SUPPLIER_MARKS[supplier];
  if (!Mark) return <>{supplier}</>;
  return (
    <span class="rs-cell">
      <Mark /> {supplierDisplayName(supplier)}
    </span>
  );
}
