// Spec §2 Users: tabs Resellers, Consumers and Admins, with the new-reseller and edit-reseller
// sub-screens opened from the Resellers tab (in-page state, not the URL).
import { useState } from "react";
import type { ResellerDto } from "../../shared/user-types.ts";
import type { AdminViewProps } from "./types.ts";
import { ResellersTab } from "./users/ResellersTab.tsx";
import { ResellerForm } from "./users/ResellerForm.tsx";
import { ConsumersTab } from "./users/ConsumersTab.tsx";
import { AdminsTab } from "./users/AdminsTab.tsx";
import { TabList } from "../lib/TabList.tsx";
import "../../styles/admin-games.css";
import "../../styles/admin-users.css";
// The balance history table is the reseller portal's own component.
import "../../styles/reseller.css";
import "../../styles/orders-table.css";

export type UsersViewProps = AdminViewProps;

type Tab = "resellers" | "consumers" | "admins";
type Screen =
  | { kind: "tabs" }
  | { kind: "new-reseller" }
  | { kind: "edit-reseller"; reseller: ResellerDto };

const TABS: { key: Tab; label: string }[] = [
  { key: "resellers", label: "Resellers" },
  { key: "consumers", label: "Consumers" },
  { key: "admins", label: "Admins" },
];

export default function UsersView({ mobile }: UsersViewProps) {
  const [tab, setTab] = useState<Tab>("resellers");
  const [screen, setScreen] = useState<Screen>({ kind: "tabs" });
  const back = () => setScreen({ kind: "tabs" });

  return (
    <section class={mobile ? "au-users ag-mobile" : "au-users"}>
      {screen.kind === "new-reseller" && <ResellerForm onBack={back} />}
      {screen.kind === "edit-reseller" && (
        <ResellerForm key={screen.reseller._id} reseller={screen.reseller} onBack={back} />
      )}
      {screen.kind === "tabs" && (
        <>
          <TabList label="Users" items={TABS} current={tab} onSelect={setTab} />
          <div role="tabpanel">
            {tab === "resellers" && (
              <ResellersTab
                onCreate={() => setScreen({ kind: "new-reseller" })}
                onEdit={(reseller) => setScreen({ kind: "edit-reseller", reseller })}
              />
            )}
            {tab === "consumers" && <ConsumersTab />}
            {tab === "admins" && <AdminsTab mobile={mobile} />}
          </div>
        </>
      )}
    </section>
  );
}
