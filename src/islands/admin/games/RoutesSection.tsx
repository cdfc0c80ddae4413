// Edit game › Settings › Routes: for each item, the suppliers an order goes to in turn when the one
// before refuses it outright. The item's own supplier is always first; the others are picked from
// what each supplier sells now, and saved per item, apart from the game's own Save.
import { useEffect, useState } from "react";
import { callApi } from "../../lib/api.ts";
import { dollarsToDollarString } from "../../lib/format.ts";
import type {
  GameRoutesDto,
  ItemRouteDto,
  ItemRoutesDto,
  RouteOfferItemDto,
} from "../../../shared/item-route-types.ts";
import { failureText } from "./draft.ts";

export interface RoutesSectionProps {
  /** The game whose items' routes are edited. */
  gameId: string;
}

type Notice = { kind: "ok" | "error"; text: string } | null;

/** One further route's line: supplier, its game and item keys, and cost. */
function routeText(route: ItemRouteDto): string {
  return `${route.supplierLabel} · ${route.game} · ${route.item} · ${
    dollarsToDollarString(route.cost)
  }`;
}

export function RoutesSection({ gameId }: RoutesSectionProps) {
  const [data, setData] = useState<GameRoutesDto | null>(null);
  const [itemKey, setItemKey] = useState("");
  const [routes, setRoutes] = useState<ItemRouteDto[]>([]);
  const [supplier, setSupplier] = useState("");
  const [game, setGame] = useState("");
  const [offer, setOffer] = useState<RouteOfferItemDto[] | null>(null);
  const [picked, setPicked] = useState("");
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  const choose = (items: ItemRoutesDto[], key: string) => {
    const item = items.find((i) => i.itemKey === key) ?? items[0];
    setItemKey(item?.itemKey ?? "");
    setRoutes(item?.routes ?? []);
    setOffer(null);
    setNotice(null);
  };

  useEffect(() => {
    callApi<GameRoutesDto>("GET", `/api/admin/games/${gameId}/routes`)
      .then((found) => {
        setData(found);
        choose(found.items, "");
      })
      .catch((error) => {
        console.error(error);
        setNotice({ kind: "error", text: failureText("get routes", error) });
      });
  }, [gameId]);

  if (!data) {
    return (
      <section class="ag-routes">
        <h3>Routes</h3>
        {notice
          ? <p class="error" role="status">{notice.text}</p>
          : <p class="muted">Loading...</p>}
      </section>
    );
  }
  if (data.unavailable) {
    return (
      <section class="ag-routes">
        <h3>Routes</h3>
        <p class="muted">{data.unavailable}</p>
      </section>
    );
  }

  const used = new Set(routes.map((r) => r.supplier));
  const free = data.suppliers.filter((s) => !used.has(s.key));
  const chosenSupplier = data.suppliers.find((s) => s.key === supplier) ?? free[0];
  const edit = (next: ItemRouteDto[]) => {
    setRoutes(next);
    setNotice(null);
  };
  const moveRoute = (index: number, by: -1 | 1) => {
    const next = [...routes];
    [next[index], next[index + by]] = [next[index + by], next[index]];
    edit(next);
  };

  const loadOffer = async () => {
    if (!chosenSupplier) return;
    setBusy(true);
    try {
      const query = new URLSearchParams({ supplier: chosenSupplier.key, game: game.trim() });
      const items = await callApi<RouteOfferItemDto[]>("GET", `/api/admin/route_offer?${query}`);
      setOffer(items);
      setPicked(items[0]?.key ?? "");
    } catch (error) {
      console.error(error);
      setNotice({ kind: "error", text: failureText("get items", error) });
    } finally {
      setBusy(false);
    }
  };

  const addRoute = () => {
    const item = offer?.find((o) => o.key === picked);
    if (!item || !chosenSupplier) return;
    edit([...routes, {
      supplier: chosenSupplier.key,
      supplierLabel: chosenSupplier.name,
      game: game.trim(),
      item: item.key,
      cost: item.cost,
    }]);
    setOffer(null);
    setGame("");
    setSupplier("");
  };

  const save = async () => {
    setBusy(true);
    try {
      const saved = await callApi<ItemRoutesDto>("PUT", `/api/admin/games/${gameId}/routes`, {
        itemKey,
        routes: routes.slice(1).map((r) => ({ supplier: r.supplier, game: r.game, item: r.item })),
      });
      const items = data.items.map((i) => i.itemKey === saved.itemKey ? saved : i);
      setData({ ...data, items });
      setRoutes(saved.routes);
      setNotice({ kind: "ok", text: "Routes saved." });
    } catch (error) {
      console.error(error);
      setNotice({ kind: "error", text: failureText("save routes", error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="ag-routes">
      <h3>Routes</h3>
      <p class="muted">
        When a supplier refuses an order outright, the order goes to the next route. The item's own
        supplier is always first.
      </p>
      {/* Labelled by id, not wrapped: a wrapped select's options would join its name. */}
      <label for="ar-item">Item</label>
      <select
        id="ar-item"
        value={itemKey}
        onChange={(e) => choose(data.items, e.currentTarget.value)}
      >
        {data.items.map((i) => <option key={i.itemKey} value={i.itemKey}>{i.itemName}</option>)}
      </select>
      <ol class="ag-route-list" aria-label="Routes of this item">
        {routes.map((route, index) => (
          <li key={route.supplier}>
            <span class="ag-route-text">
              {routeText(route)}
              {index === 0 && <span class="muted">(own supplier)</span>}
            </span>
            {index > 0 && (
              <span class="ag-route-actions">
                <button
                  type="button"
                  class="btn-secondary"
                  disabled={index === 1}
                  onClick={() => moveRoute(index, -1)}
                  aria-label={`Move ${route.supplierLabel} up`}
                >
                  Up
                </button>
                <button
                  type="button"
                  class="btn-secondary"
                  disabled={index === routes.length - 1}
                  onClick={() => moveRoute(index, 1)}
                  aria-label={`Move ${route.supplierLabel} down`}
                >
                  Down
                </button>
                <button
                  type="button"
                  class="btn-secondary"
                  onClick={() => edit(routes.filter((_, i) => i !== index))}
                  aria-label={`Remove ${route.supplierLabel}`}
                >
                  Remove
                </button>
              </span>
            )}
          </li>
        ))}
      </ol>
      {chosenSupplier && (
        <fieldset class="ag-rowlist">
          <legend>Add Route</legend>
          <label for="ar-supplier">Supplier</label>
          <select
            id="ar-supplier"
            value={chosenSupplier.key}
            onChange={(e) => {
              setSupplier(e.currentTarget.value);
              setOffer(null);
            }}
          >
            {free.map((s) => <option key={s.key} value={s.key}>{s.name}</option>)}
          </select>
          <label>
            {chosenSupplier.gameKeyLabel}
            <input
              type="text"
              value={game}
              onInput={(e) => {
                setGame(e.currentTarget.value);
                setOffer(null);
              }}
            />
          </label>
          <button
            type="button"
            class="btn-secondary"
            disabled={busy || !game.trim()}
            onClick={loadOffer}
          >
            Load Items
          </button>
          {offer && (
            offer.length
              ? (
                <>
                  <label for="ar-offer">Supplier Item</label>
                  <select
                    id="ar-offer"
                    value={picked}
                    onChange={(e) => setPicked(e.currentTarget.value)}
                  >
                    {offer.map((o) => (
                      <option key={o.key} value={o.key}>
                        {`${o.name} · ${dollarsToDollarString(o.cost)}`}
                      </option>
                    ))}
                  </select>
                  <button type="button" class="btn-secondary" onClick={addRoute}>Add Route</button>
                </>
              )
              : <p class="muted">This supplier sells nothing for that game.</p>
          )}
        </fieldset>
      )}
      <div class="ag-route-save">
        {notice && (
          <p class={notice.kind === "ok" ? "ag-ok" : "error"} role="status">{notice.text}</p>
        )}
        <button type="button" class="btn" disabled={busy || !itemKey} onClick={save}>
          Save Routes
        </button>
      </div>
    </section>
  );
}
