// The item rows of a game (Merchandise tab) or of one package (spec §2 Edit game, §3 Game item).
import type { GameItemDto } from "../../../shared/game-types.ts";
import { withDiscount } from "./draft.ts";
import { NumberInput } from "./fields.tsx";
import { sortItemsForDisplay } from "../../../shared/item-sorting.ts";

export interface ItemsEditorProps {
  /** The items being edited, in display order. */
  items: GameItemDto[];
  /** Shows the 2x recharge toggle (only the game named 'Mobile Legends' has it). */
  allowDoubleRecharge: boolean;
  /** Called with the whole new item list after any edit or re-sort. */
  onChange: (items: GameItemDto[]) => void;
}

const cost = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 10,
  useGrouping: false,
});

/** Supplier cost with at least two decimals and the supplier's own precision beyond that. */
function formatCost(value: number): string {
  return `$${cost.format(value)}`;
}

export function ItemsEditor({ items, allowDoubleRecharge, onChange }: ItemsEditorProps) {
  const edit = (index: number, item: GameItemDto) =>
    onChange(items.map((old, i) => i === index ? item : old));

  if (items.length === 0) return <p class="muted">No items available</p>;
  return (
    <div class="ag-items">
      <div class="ag-toolbar">
        <span class="muted">{items.length} items</span>
        <button
          type="button"
          class="btn-secondary"
          onClick={() => onChange(sortItemsForDisplay(items))}
        >
          Optimise Sorting
        </button>
      </div>
      <div class="ag-scroll" tabIndex={0} role="region" aria-label="Items">
        <table class="ag-table ag-items-table">
          <thead>
            <tr>
              <th>Reseller Name</th>
              <th>Consumer Name</th>
              <th>Supplier Name</th>
              <th>Cost</th>
              <th>Hide for Consumers</th>
              <th>Hide for Resellers</th>
              {allowDoubleRecharge && <th>2x Recharge</th>}
              <th>Consumer Discount %</th>
              <th>Reseller Discount %</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item, index) => (
              <tr key={item.nameSupplier}>
                <td>
                  <input
                    type="text"
                    aria-label="Reseller name"
                    value={item.nameReseller}
                    onInput={(e) => edit(index, { ...item, nameReseller: e.currentTarget.value })}
                  />
                </td>
                <td class="ag-stack">
                  <input
                    type="text"
                    aria-label="Consumer header"
                    placeholder="Header"
                    value={item.nameConsumer.header}
                    onInput={(e) =>
                      edit(index, {
                        ...item,
                        nameConsumer: { ...item.nameConsumer, header: e.currentTarget.value },
                      })}
                  />
                  <input
                    type="text"
                    aria-label="Consumer subheader"
                    placeholder="Subheader"
                    value={item.nameConsumer.subheader}
                    onInput={(e) =>
                      edit(index, {
                        ...item,
                        nameConsumer: { ...item.nameConsumer, subheader: e.currentTarget.value },
                      })}
                  />
                </td>
                <td class="ag-readonly">{item.nameSupplier}</td>
                <td class="ag-readonly">{formatCost(item.cost)}</td>
                <td class="ag-center">
                  <input
                    type="checkbox"
                    aria-label="Hide for consumers"
                    checked={item.isHiddenConsumer}
                    onChange={(e) =>
                      edit(index, { ...item, isHiddenConsumer: e.currentTarget.checked })}
                  />
                </td>
                <td class="ag-center">
                  <input
                    type="checkbox"
                    aria-label="Hide for resellers"
                    checked={item.isHiddenReseller}
                    onChange={(e) =>
                      edit(index, { ...item, isHiddenReseller: e.currentTarget.checked })}
                  />
                </td>
                {allowDoubleRecharge && (
                  <td class="ag-center">
                    <input
                      type="checkbox"
                      aria-label="2x recharge"
                      checked={item.isDoubleRecharge}
                      onChange={(e) =>
                        edit(index, { ...item, isDoubleRecharge: e.currentTarget.checked })}
                    />
                  </td>
                )}
                <td>
                  <NumberInput
                    ariaLabel="Consumer discount %"
                    value={item.discountRateConsumer}
                    onChange={(rate) => edit(index, withDiscount(item, "Consumer", rate))}
                  />
                </td>
                <td>
                  <NumberInput
                    ariaLabel="Reseller discount %"
                    value={item.discountRateReseller}
                    onChange={(rate) => edit(index, withDiscount(item, "Reseller", rate))}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
