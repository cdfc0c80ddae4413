// EliteDias behind the supplier port: its answers reduced to verdicts, its account check in the
// spec's checkid shape. EliteDias cannot be asked for an order by our reference, and whether it
// deduplicates on `reference` is unconfirmed (external-apis.md §2.3), so it declares no lookup.
import { MLBB_SUPPLIER_NAME } from "../../shared/consumer-storefront.ts";
import type { ElitediasClient } from "./client.ts";
import {
  balanceFailure,
  classify,
  type SupplierPort,
  type SupplierProfile,
} from "../supplier-port.ts";

/** EliteDias's key in games.supplier and orders.supplier. */
export const ELITEDIAS_KEY = "elephant";

/**
 * Mobile Legends as the catalogue stores it: an EliteDias game whose packages are EliteDias games
 * of their own, verified by checkid for the global and the special package at once.
 */
export const MOBILE_LEGENDS_GAME = { supplier: ELITEDIAS_KEY, supplierName: MLBB_SUPPLIER_NAME };

/** What is known of EliteDias without asking it. */
export const ELITEDIAS_PROFILE: SupplierProfile = {
  key: ELITEDIAS_KEY,
  name: "EliteDias",
  vendor: "elitedias",
  // Its balance answer names no currency; the account is funded in SGD (unconfirmed by its
  // documents, client.ts).
  balanceCurrency: "SGD",
  capabilities: { findsByOurReference: false, reportsMaintenanceOnOrder: true },
  gameKey: "supplierName",
  takesOrdersFor: () => true,
  itemKey: (item) => item.nameSupplier,
};

/** Spec §7 elephant verify answer: valid 'valid' is OK. */
export interface ElitediasVerification {
  valid: "valid" | "invalid" | "error";
  name: string;
  error: string;
}

/** The supplier port of an EliteDias client. */
export function createElitediasPort(client: ElitediasClient): SupplierPort {
  return {
    ...ELITEDIAS_PROFILE,

    prepareCreate(order) {
      return Promise.resolve(async () => {
        const r = await client.topup({
          game: order.gameCode ?? "",
          userid: order.userId,
          serverid: order.serverId || undefined,
          denom: order.denom,
          reference: order.id,
        });
        if (r.ok) return { kind: "accepted", supplierOrderId: r.value.orderId, status: "pending" };
        if (r.kind !== "throttled") return classify(r);
        return { kind: "later", reason: classify(r).reason, retryAfterMs: r.retryAfterMs };
      });
    },

    async track(order) {
      if (!order.supplierOrderId) return { kind: "unknown", reason: "not yet at EliteDias" };
      const r = await client.trackOrder(order.supplierOrderId);
      if (!r.ok) return { kind: "unknown", reason: classify(r).reason };
      return { kind: "accepted", supplierOrderId: r.value.orderId, status: r.value.status };
    },

    async checkAccount(game, account) {
      const r = await client.checkId(
        game.supplierName,
        account.userid,
        account.serverid || undefined,
      );
      if (!r.ok) return { ok: false, unanswered: r.message };
      const presented: ElitediasVerification = {
        valid: r.value.valid,
        name: r.value.name ?? "",
        error: r.value.error ?? "",
      };
      return {
        ok: true,
        answer: {
          valid: presented.valid === "valid",
          userName: presented.name,
          errorText: presented.error,
          undecided: presented.valid === "error",
          region: r.value.region,
        },
        presented,
      };
    },

    async readOffer(game) {
      const r = await client.denominations(game.supplierName);
      if (!r.ok) return null;
      return new Map(
        Object.entries(r.value).map(([denom, cost]) => [denom, { cost, name: denom }]),
      );
    },

    async readServers(game) {
      const r = await client.serverList(game.supplierName);
      return r.ok ? r.value : null;
    },

    async readBalance() {
      const r = await client.balance();
      return r.ok
        ? { ok: true, balance: r.value, currency: ELITEDIAS_PROFILE.balanceCurrency }
        : balanceFailure(r);
    },

    async readLaunchDetails(game) {
      const f = await client.gameFields(game);
      if (!f.ok) return null;
      return {
        fields: f.value.fields,
        supplierName: game,
        supplierNotes: f.value.notes,
        supplierGameId: "",
      };
    },
  };
}
