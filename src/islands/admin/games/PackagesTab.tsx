// Edit game › Packages: the game's packages (spec §3 Package); a row opens the single-package view.
import type { GamePackageDto } from "../../../shared/game-types.ts";

export interface PackagesTabProps {
  /** The packages as edited so far. */
  packages: GamePackageDto[];
  /** Opens the single-package view for the package at this index. */
  onOpen: (index: number) => void;
}

const yesNo = (value: boolean) => value ? "Yes" : "No";

export function PackagesTab({ packages, onOpen }: PackagesTabProps) {
  if (packages.length === 0) return <p class="muted">This game has no packages.</p>;
  return (
    <div class="ag-scroll" tabIndex={0} role="region" aria-label="Packages">
      <table class="ag-table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Description</th>
            <th>Is Hidden</th>
            <th>Is Out of Stock</th>
            <th>Consumer Markup %</th>
            <th>Items</th>
          </tr>
        </thead>
        <tbody>
          {packages.map((pkg, index) => (
            <tr
              key={pkg.name}
              class="ag-clickable"
              tabIndex={0}
              onClick={() => onOpen(index)}
              onKeyDown={(e) => e.key === "Enter" && onOpen(index)}
            >
              <td>{pkg.name}</td>
              <td>{pkg.description}</td>
              <td>{yesNo(pkg.isHidden)}</td>
              <td>{yesNo(pkg.isOutOfStock)}</td>
              <td>{pkg.markupConsumer}</td>
              <td>{pkg.gameItems.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
