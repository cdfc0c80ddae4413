import { useState } from "react";
import type { LaunchedGame, LaunchFormValues, SupplierDetail, SupplierGame } from "./types.ts";
import { FAILURE, fetchResellers, launchGame } from "./supplier-api.ts";
import { buildLaunchBody } from "./launch-rules.ts";
import { useLoad } from "../../lib/use-load.ts";

export interface LaunchFormProps {
  /** The supplier game to launch. */
  game: SupplierGame;
  /** Its items, fields, servers and notes as the supplier sent them. */
  detail: SupplierDetail;
  /** The priority to send: the launched count + 1 (spec §3 Game). */
  priority: number;
  /** Called with the launched-games entry once the server has created the game. */
  onLaunched: (game: LaunchedGame) => void;
}

const EMPTY_FORM: LaunchFormValues = {
  name: "",
  tagline: "",
  gameCurrency: "",
  consumerMarkup: "",
  resellerMarkupAll: "",
  markupForIndividualResellers: false,
  resellerMarkup: {},
};

const inputValue = (event: Event) => (event.target as HTMLInputElement).value;

/** Spec §2 launch form: sections Game Details and Mark up, submitted with 'Launch Game!'. */
export function LaunchForm({ game, detail, priority, onLaunched }: LaunchFormProps) {
  // Name starts as the supplier's name for the game (the EliteDias code's name, the MooGold
  // product title): the admin edits it or launches as it is.
  const [form, setForm] = useState({ ...EMPTY_FORM, name: detail.title || game.title });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const resellers = useLoad(fetchResellers, "resellers");
  const set = (patch: Partial<LaunchFormValues>) => setForm((f) => ({ ...f, ...patch }));
  const setResellerMarkup = (name: string, percent: string) =>
    setForm((f) => ({ ...f, resellerMarkup: { ...f.resellerMarkup, [name]: percent } }));

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError("");
    try {
      const names = resellers.state === "ready" ? resellers.value.map((r) => r.name) : [];
      onLaunched(await launchGame(buildLaunchBody(game, detail, form, names, priority)));
    } catch (e) {
      console.error(e);
      setError(FAILURE.launch);
      alert(FAILURE.launch);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="panel launch-form" onSubmit={submit}>
      <fieldset>
        <legend>Game Details</legend>
        <label for="launch-name">Name</label>
        <input
          id="launch-name"
          required
          value={form.name}
          onInput={(e) => set({ name: inputValue(e) })}
        />
        <label for="launch-supplier-name">Supplier Name</label>
        <input id="launch-supplier-name" readOnly value={game.supplierName} />
        <label for="launch-tagline">Tagline</label>
        <input
          id="launch-tagline"
          value={form.tagline}
          onInput={(e) => set({ tagline: inputValue(e) })}
        />
        <label for="launch-currency">Game Currency</label>
        <input
          id="launch-currency"
          placeholder="e.g. Diamonds"
          aria-describedby="launch-currency-hint"
          value={form.gameCurrency}
          onInput={(e) => set({ gameCurrency: inputValue(e) })}
        />
        <p id="launch-currency-hint" class="muted hint">
          Leave blank if the supplier already includes it in the item names.
        </p>
      </fieldset>

      <fieldset>
        <legend>Mark up</legend>
        <label for="launch-consumer-markup">Consumer Markup %</label>
        <input
          id="launch-consumer-markup"
          type="number"
          step="any"
          min="0"
          placeholder="e.g. 8.8"
          value={form.consumerMarkup}
          onInput={(e) => set({ consumerMarkup: inputValue(e) })}
        />
        <label class="checkbox">
          <input
            type="checkbox"
            checked={form.markupForIndividualResellers}
            onChange={(e) =>
              set({ markupForIndividualResellers: (e.target as HTMLInputElement).checked })}
          />
          Set % for individual resellers
        </label>
        {!form.markupForIndividualResellers && (
          <>
            <label for="launch-reseller-markup">Reseller Markup %</label>
            <input
              id="launch-reseller-markup"
              type="number"
              step="any"
              min="0"
              placeholder="e.g. 8.8"
              aria-describedby="launch-reseller-markup-hint"
              value={form.resellerMarkupAll}
              onInput={(e) => set({ resellerMarkupAll: inputValue(e) })}
            />
            <p id="launch-reseller-markup-hint" class="muted hint">For all resellers.</p>
          </>
        )}
        {form.markupForIndividualResellers && resellers.state === "loading" && (
          <p class="muted" role="status">Loading resellers...</p>
        )}
        {form.markupForIndividualResellers && resellers.state === "failed" && (
          <p class="banner banner-error" role="alert">{resellers.message}</p>
        )}
        {form.markupForIndividualResellers && resellers.state === "ready" && (
          <div class="markup-grid">
            {resellers.value.map((reseller) => (
              <div key={reseller._id}>
                <label for={`launch-markup-${reseller._id}`}>{reseller.name}</label>
                <input
                  id={`launch-markup-${reseller._id}`}
                  type="number"
                  step="any"
                  min="0"
                  placeholder="e.g. 8.8"
                  value={form.resellerMarkup[reseller.name] ?? ""}
                  onInput={(e) => setResellerMarkup(reseller.name, inputValue(e))}
                />
              </div>
            ))}
          </div>
        )}
      </fieldset>

      {error && <p class="banner banner-error" role="alert">{error}</p>}
      <button class="btn" type="submit" disabled={busy}>
        {busy ? "Launching…" : "Launch Game!"}
      </button>
    </form>
  );
}
