// The items of the top-up page (spec §2: 8 per row on desktop, fewer on narrow screens; Diamonds
// as a gem; discounts and double recharge marked). One item is chosen at a time.
import type { ConsumerItemDto } from "../../shared/consumer-storefront.ts";
import { dollarsToDollarString } from "../lib/format.ts";
import { GemText } from "../lib/GemText.tsx";
import "../../styles/item-grid.css";

export interface ItemPickerProps {
  /** The items of the verified account's package (or of the standard package before Verify). */
  items: ConsumerItemDto[];
  /** The chosen item's key, or "". */
  selected: string;
  /** False until the account is verified: the items are shown, not yet choosable. */
  enabled: boolean;
  /** Called with the clicked item. */
  onPick: (item: ConsumerItemDto) => void;
}

function ItemCard(
  { item, selected, enabled, onPick }: Omit<ItemPickerProps, "items"> & { item: ConsumerItemDto },
) {
  return (
    <button
      type="button"
      class="item-card ct-item"
      aria-pressed={selected === item.key}
      disabled={!enabled}
      onClick={() => onPick(item)}
    >
      {item.image && <img src={item.image} alt="" width="56" height="56" loading="lazy" />}
      {item.isDoubleRecharge && <span class="ct-badge">2x</span>}
      {item.listPrice !== null && <span class="ct-badge ct-badge-sale">Sale</span>}
      <span class="item-name">
        <GemText text={item.header} />
      </span>
      {item.subheader && (
        <span class="item-sub">
          <GemText text={item.subheader} />
        </span>
      )}
      <span class="item-price">
        {item.listPrice !== null && <s>{dollarsToDollarString(item.listPrice)}</s>}{" "}
        {dollarsToDollarString(item.price)}
      </span>
    </button>
  );
}

/** The item grid, double-recharge items in their own section. */
export function ItemPicker(props: ItemPickerProps) {
  const regular = props.items.filter((item) => !item.isDoubleRecharge);
  const doubled = props.items.filter((item) => item.isDoubleRecharge);
  const grid = (items: ConsumerItemDto[]) => (
    <div class="item-grid">
      {items.map((item) => <ItemCard key={item.key} item={item} {...props} />)}
    </div>
  );
  return (
    <>
      {regular.length > 0 && grid(regular)}
      {doubled.length > 0 && (
        <>
          <h3 class="ct-section-title">Double Recharge</h3>
          {grid(doubled)}
        </>
      )}
    </>
  );
}
