import { useState } from "react";
import { ElephantIcon, MonkeyIcon } from "../lib/icons.tsx";
import "../../styles/admin-suppliers.css";
import type { AdminViewProps } from "./types.ts";
import type { LaunchedGame, Supplier, SupplierGame } from "./suppliers/types.ts";
import { fetchLaunchedGames, fetchSupplierGames } from "./suppliers/supplier-api.ts";
import { isLaunched, soldElsewhere } from "./suppliers/launch-rules.ts";
import { useLoad } from "../lib/use-load.ts";
import { SupplierGameList } from "./suppliers/SupplierGameList.tsx";
import { SupplierGameDetail } from "./suppliers/SupplierGameDetail.tsx";

/** Spec §2 Suppliers: one tab per supplier, with the mark the games list uses for each. */
const TABS: { key: Supplier; label: string; Mark: typeof ElephantIcon }[] = [
  { key: "elephant", label: "EliteDias", Mark: ElephantIcon },
  { key: "monkey", label: "MooGold", Mark: MonkeyIcon },
];

/** Spec §2 Suppliers: browse each supplier's catalogue and launch its games. */
export default function SuppliersView({ mobile }: AdminViewProps) {
  const [supplier, setSupplier] = useState<Supplier>("elephant");
  const [search, setSearch] = useState("");
  const [open, setOpen] = useState<SupplierGame | null>(null);
  // Games launched from this screen join the list without fetching it again.
  const [launchedHere, setLaunchedHere] = useState<LaunchedGame[]>([]);
  const games = useLoad(() => fetchSupplierGames(supplier), supplier);
  const launchedList = useLoad(fetchLaunchedGames, "launched");

  const launched = [
    ...(launchedList.state === "ready" ? launchedList.value : []),
    ...launchedHere,
  ];

  function chooseTab(key: Supplier) {
    setSupplier(key);
    setSearch("");
    setOpen(null);
  }

  return (
    <section class={mobile ? "suppliers mobile" : "suppliers"}>
      <h2>Suppliers</h2>
      <div class="tabs supplier-tabs" role="tablist" aria-label="Suppliers">
        {TABS.map((tab) => (
          <button
            key={tab.key}
            type="button"
            role="tab"
            aria-selected={tab.key === supplier}
            onClick={() => chooseTab(tab.key)}
          >
            <tab.Mark /> {tab.label}
          </button>
        ))}
      </div>
      {launchedList.state === "loading" && (
        <p class="muted" role="status">Loading launched games...</p>
      )}
      {launchedList.state === "failed" && (
        <p class="banner banner-error" role="alert">{launchedList.message}</p>
      )}
      {launchedList.state === "ready" && (open
        ? (
          <SupplierGameDetail
            key={`${open.supplier}:${open.supplierGameID}:${open.supplierName}`}
            game={open}
            launched={isLaunched(launched, open)}
            soldElsewhere={soldElsewhere(launched, open)}
            priority={launched.length + 1}
            onBack={() => setOpen(null)}
            onLaunched={(game) => setLaunchedHere((list) => [...list, game])}
          />
        )
        : (
          <SupplierGameList
            games={games}
            launched={launched}
            search={search}
            onSearch={setSearch}
            onOpen={setOpen}
          />
        ))}
    </section>
  );
}
