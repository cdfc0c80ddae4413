// Edit game › one package: its settings and its items (spec §2 single-package view).
import type { GamePackageDto } from "../../../shared/game-types.ts";
import { CheckboxField, NumberField, TextField } from "./fields.tsx";
import { ItemsEditor } from "./ItemsEditor.tsx";

export interface PackageViewProps {
  /** The package as edited so far. */
  pkg: GamePackageDto;
  /** Shows the 2x recharge toggle (only the game named 'Mobile Legends' has it). */
  allowDoubleRecharge: boolean;
  /** Called with the changed package. */
  onChange: (pkg: GamePackageDto) => void;
}

export function PackageView({ pkg, allowDoubleRecharge, onChange }: PackageViewProps) {
  const patch = (change: Partial<GamePackageDto>) => onChange({ ...pkg, ...change });
  return (
    <div>
      <div class="ag-grid">
        <div>
          <TextField
            label="Description"
            value={pkg.description}
            onChange={(description) => patch({ description })}
          />
          <TextField
            label="Remarks"
            value={pkg.remarks}
            onChange={(remarks) => patch({ remarks })}
          />
        </div>
        <div>
          <NumberField
            label="Consumer Markup %"
            value={pkg.markupConsumer}
            onChange={(markupConsumer) => patch({ markupConsumer })}
          />
          <CheckboxField
            label="Is Hidden"
            checked={pkg.isHidden}
            onChange={(isHidden) => patch({ isHidden })}
          />
          <CheckboxField
            label="Is Out of Stock"
            checked={pkg.isOutOfStock}
            onChange={(isOutOfStock) => patch({ isOutOfStock })}
          />
        </div>
      </div>
      <h3>Items</h3>
      <ItemsEditor
        items={pkg.gameItems}
        allowDoubleRecharge={allowDoubleRecharge}
        onChange={(gameItems) => patch({ gameItems })}
      />
    </div>
  );
}
