// Spec §2 game item screen: search, item cards with the reseller price, the double-recharge
// section, and the confirmation before an order (spec §4 Catalogue: one item at a time), which
// also names the player the order goes to.
import { ConfirmDialog } from "../lib/ConfirmDialog.tsx";
import { useState } from "react";
import type { ResellerItemDto } from "../../shared/game-types.ts";
import { dollarsToDollarString } from "../lib/format.ts";
import { WithGem } from "../lib/icon-text.tsx";
import { BoltIcon } from "../lib/icons.tsx";
import "../../styles/item-grid.css";

/** The player an order goes to, as verified and as the buyer chose the server. */
export interface OrderPlayer {
  /** The name the supplier's check answered ("" when it gave none). */
  userName: string;
  /** The User ID typed. */
  userid: string;
  /** The server, for games that need one: "Server" and a named server's name, or "Server ID". */
  server?: { label: string; value: string };
}

export interface CatalogueProps {
  /** The items the verified account may buy, priced for this reseller. */
  items: ResellerItemDto[];
  /** Who the order goes to: the confirmation repeats it. */
  player: OrderPlayer;
  /** True while an order is being placed; items cannot be picked meanwhile. */
  placing: boolean;
  /** Called with the confirmed item and the idempotency key of that confirmation. */
  onConfirm: (item: ResellerItemDto, idempotencyKey: string) => void;
}

interface Selection {
  item: ResellerItemDto;
  key: string;
}

function ItemGrid(
  { items, disabled, onPick }: {
    items: ResellerItemDto[];
    disabled: boolean;
    onPick: (item: ResellerItemDto) => void;
  },
) {
  return (
    <div class="item-grid rs-item-grid">
      {items.map((item) => (
        <button
          key={item.key}
          type="button"
          class="item-card rs-item"
          disabled={disabled}
          onClick={() => onPick(item)}
        >
          {item.image && <img src={item.image} alt="" loading="lazy" />}
          <span class="item-name">
            <WithGem text={item.name} />
          </span>
          {item.nameConsumer.subheader && (
            <span class="item-sub">
              <WithGem text={item.nameConsumer.subheader} />
            </span>
          )}
          <span class="item-price">{dollarsToDollarString(item.price)}</span>
        </button>
      ))}
    </div>
  );
}

/** The confirmation's account lines: the order goes to this player, whatever the form holds now. */
function PlayerDetails({ player }: { player: OrderPlayer }) {
  return (
    <div role="group" aria-label="Player">
      <dl class="rs-player">
        <dt>User Name</dt>
        <dd>{player.userName || "-"}</dd>
        <dt>User ID</dt>
        <dd>{player.userid}</dd>
        {player.server && (
          <>
            <dt>{player.server.label}</dt>
            <dd>{player.server.value}</dd>
          </>
        )}
      </dl>
    </div>
  );
}

export function Catalogue({ items, player, placing, onConfirm }: CatalogueProps) {
  const [search, setSearch] = useState("");
  const [selected, setSelected] = useState<Selection | null>(null);
  const needle = search.trim().toLowerCase();
  const shown = needle
    ? items.filter((item) => item.nameConsumer.header.toLowerCase().includes(needle))
    : items;
  const regular = shown.filter((item) => !item.isDoubleRecharge);
  const doubled = shown.filter((item) => item.isDoubleRecharge);
  // The key is made once per confirmation: resending that confirmation cannot order twice.
  const pick = (item: ResellerItemDto) => setSelected({ item, key: crypto.randomUUID() });

  return (
    <section class="rs-catalogue" aria-busy={placing}>
      <input
        type="search"
        class="rs-search"
        placeholder="Search product..."
        aria-label="Search product"
        value={search}
        onInput={(e) => setSearch(e.currentTarget.value)}
      />
      {placing && <p class="muted" role="status">Placing order...</p>}
      {shown.length === 0 ? <p class="muted">No items available</p> : (
        <>
          {regular.length > 0 && <ItemGrid items={regular} disabled={placing} onPick={pick} />}
          {doubled.length > 0 && (
            <>
              <h3 class="rs-section-title">
                Double Recharge <BoltIcon />
                <BoltIcon />
              </h3>
              <ItemGrid items={doubled} disabled={placing} onPick={pick} />
            </>
          )}
        </>
      )}
      {selected && (
        <ConfirmDialog
          message={`Proceed with: ${selected.item.name} (${
            dollarsToDollarString(selected.item.price)
          })?`}
          confirmLabel="Place Order"
          tone="primary"
          onCancel={() => setSelected(null)}
          onConfirm={() => {
            setSelected(null);
            onConfirm(selected.item, selected.key);
          }}
        >
          <PlayerDetails player={player} />
        </ConfirmDialog>
      )}
    </section>
  );
}
