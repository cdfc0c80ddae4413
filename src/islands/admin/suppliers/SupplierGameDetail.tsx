import { useState } from "react";
import type { LaunchedGame, SupplierDetail, SupplierGame } from "./types.ts";
import { fetchSupplierDetail } from "./supplier-api.ts";
import { formatPrice, launchableItems, matchesSearch } from "./launch-rules.ts";
import { useLoad } from "../../lib/use-load.ts";
import { LaunchForm } from "./LaunchForm.tsx";
import { CheckIcon } from "../../lib/icons.tsx";
import { callApi } from "../../lib/api.ts";
import { errorText } from "../games/draft.ts";

export interface SupplierGameDetailProps {
  /** The supplier game shown. */
  game: SupplierGame;
  /** True when the game is among the launched games. */
  launched: boolean;
  /** The priority a launch sends: the launched count + 1. */
  priority: number;
  /** Called to return to the supplier's games. */
  onBack: () => void;
  /** Called with the launched-games entry after a successful launch. */
  onLaunched: (game: LaunchedGame) => void;
  /** The same game launched from another supplier, whose items this one's can follow. */
  soldElsewhere?: LaunchedGame;
}

/**
 * Offered when another supplier already sells the game: this supplier's items of the same names
 * become the launched game's items' next routes, instead of a second game.
 */
function RouteOffer({ game, target }: { game: SupplierGame; target: LaunchedGame }) {
  const [state, setState] = useState<
    { kind: "idle" | "busy" } | { kind: "done" | "failed"; text: string }
  >({ kind: "idle" });
  const map = async () => {
    setState({ kind: "busy" });
    try {
      const result = await callApi<{ mapped: number; unmatched: string[] }>(
        "POST",
        `/api/admin/games/${target._id}/route_map`,
        {
          supplier: game.supplier,
          supplierName: game.supplierName,
          supplierGameID: game.supplierGameID,
        },
      );
      const unmatched = result.unmatched.length
        ? ` No item of the same name for: ${result.unmatched.join(", ")}.`
        : "";
      setState({
        kind: "done",
        text: `${result.mapped} item(s) of ${target.name} now go here when refused.${unmatched}`,
      });
    } catch (error) {
      setState({ kind: "failed", text: errorText(error) });
    }
  };
  return (
    <div class="route-offer">
      <div class="panel">
        <p>
          {target.name}{" "}
          is already sold through another supplier. Instead of launching it again, this supplier's
          items can be its items' next routes, used when that supplier refuses an order.
        </p>
        <button type="button" class="btn" disabled={state.kind === "busy"} onClick={map}>
          Add as Routes
        </button>
      </div>
      {/* Outside the panel: the banners' colours are read against the page's background. */}
      {(state.kind === "done" || state.kind === "failed") && (
        <p
          class={state.kind === "done" ? "banner banner-ok" : "banner banner-error"}
          role="status"
        >
          {state.text}
        </p>
      )}
    </div>
  );
}

function DetailsSection({ detail }: { detail: SupplierDetail }) {
  const servers = Object.entries(detail.servers);
  return (
    <section class="panel supplier-details" aria-labelledby="supplier-details-heading">
      <h4 id="supplier-details-heading">Details</h4>
      <h5>Fields</h5>
      {detail.fields.length
        ? <ul>{detail.fields.map((field) => <li key={field}>{field}</li>)}</ul>
        : <p class="muted">None</p>}
      <h5>Servers</h5>
      {servers.length
        ? (
          <ul>
            {servers.map(([label, value]) => <li key={label}>{`${label}: ${value}`}</li>)}
          </ul>
        )
        : <p>Server list: None</p>}
      {detail.notes && (
        <>
          <h5>Notes</h5>
          <p class="supplier-notes">{detail.notes}</p>
        </>
      )}
    </section>
  );
}

/**
 * Spec §2 Suppliers detail: the supplier's denominations and details, and the launch toggle and
 * form until the game is launched.
 */
export function SupplierGameDetail({
  game,
  launched,
  priority,
  onBack,
  onLaunched,
  soldElsewhere,
}: SupplierGameDetailProps) {
  const detail = useLoad(
    () => fetchSupplierDetail(game),
    `${game.supplier}:${game.supplierGameID}:${game.supplierName}`,
  );
  const [search, setSearch] = useState("");
  const [formOpen, setFormOpen] = useState(false);
  const [justLaunched, setJustLaunched] = useState(false);

  const title = detail.state === "ready" ? detail.value.title : game.title;
  const items = detail.state === "ready"
    ? detail.value.items.filter((item) => matchesSearch(item.nameSupplier, search))
    : [];

  return (
    <section class="supplier-detail">
      <div class="supplier-toolbar">
        <h3>{title}</h3>
        {title !== game.supplierName && <code class="supplier-code">{game.supplierName}</code>}
        <input
          type="search"
          placeholder="Search item..."
          aria-label="Search item"
          value={search}
          onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
        />
        <button type="button" class="btn-secondary" onClick={onBack}>Back to Games</button>
      </div>

      {detail.state === "loading" && <p class="muted" role="status">Loading details...</p>}
      {detail.state === "failed" && <p class="banner banner-error" role="alert">{detail.message}
      </p>}
      {detail.state === "ready" && (
        <>
          <section aria-labelledby="supplier-denominations-heading">
            <h4 id="supplier-denominations-heading">Denominations</h4>
            {items.length === 0 && <p class="muted">No items available</p>}
            <ul class="supplier-grid">
              {items.map((item) => (
                <li key={item.id ?? item.nameSupplier} class="denomination-card">
                  <span>{item.nameSupplier}</span>
                  <strong class="price">{formatPrice(item.price)}</strong>
                </li>
              ))}
            </ul>
          </section>

          <DetailsSection detail={detail.value} />

          <div class="launch-area">
            {justLaunched && (
              <p class="banner banner-ok" role="status">Game successfully launched!</p>
            )}
            {launched && (
              <p class="launched">
                This game has been launched <CheckIcon label="launched" />
              </p>
            )}
            {!launched && soldElsewhere && <RouteOffer game={game} target={soldElsewhere} />}
            {!launched && launchableItems(detail.value.items).length > 0 && (
              <>
                <button type="button" class="btn" onClick={() => setFormOpen(!formOpen)}>
                  {formOpen ? "Cancel Launch" : "Launch this Game"}
                </button>
                {formOpen && (
                  <LaunchForm
                    game={game}
                    detail={detail.value}
                    priority={priority}
                    onLaunched={(created) => {
                      setFormOpen(false);
                      setJustLaunched(true);
                      onLaunched(created);
                    }}
                  />
                )}
              </>
            )}
          </div>
        </>
      )}
    </section>
  );
}
