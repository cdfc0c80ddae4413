// MooGold behind the supplier port: its product field labels (cached per product), its answers
// reduced to verdicts, and its account check in the spec's validate shape.
import type { MoogoldClient } from "./client.ts";
import {
  type AccountCheckResult,
  balanceFailure,
  classify,
  type SupplierOrder,
  type SupplierPort,
  type SupplierProfile,
  type SupplierVerdict,
} from "../supplier-port.ts";

/** MooGold's key in games.supplier and orders.supplier. */
export const MOOGOLD_KEY = "monkey";

const productFields = new Map<number, { fields: string[]; at: number }>();

async function moogoldFields(client: MoogoldClient, productId: number): Promise<string[] | null> {
  const cached = productFields.get(productId);
  if (cached && Date.now() - cached.at < 600_000) return cached.fields;
  const detail = await client.productDetail(productId);
  if (!detail.ok) return null;
  productFields.set(productId, { fields: detail.value.fields, at: Date.now() });
  return detail.value.fields;
}

/**
 * MooGold keys order data by the product's field labels: the first is the player id. The spec's
 * order call never carries the Character Name, so a product that asks for one gets the name the
 * account check returned (the order's user name), which is that character's name.
 */
function moogoldOrderFields(labels: string[], order: SupplierOrder): Record<string, string> {
  const fields: Record<string, string> = {};
  labels.forEach((label, i) => {
    if (i === 0) fields[label] = order.userId;
    else if (/server|zone/i.test(label)) fields[label] = order.serverId;
    else if (/character|name/i.test(label)) fields[label] = order.userName;
  });
  return fields;
}

/**
 * Validate's data, keyed by the product's own field labels; a character-name field gets the name
 * the buyer typed, since validate checks every field.
 */
function validateFields(
  labels: string[],
  account: { userid: string; serverid: string; characterName: string },
): Record<string, string> {
  const fields: Record<string, string> = {};
  labels.forEach((label, i) => {
    if (i === 0) fields[label] = account.userid;
    else if (/server|zone/i.test(label)) fields[label] = account.serverid;
    else if (account.characterName && /character|nickname|ign/i.test(label)) {
      fields[label] = account.characterName;
    }
  });
  return fields;
}

/** A MooGold product id as its API takes it, or null when the text is none. */
function productIdOf(text: string | null): number | null {
  const id = Number(text ?? "");
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** What is known of MooGold without asking it. */
export const MOOGOLD_PROFILE: SupplierProfile = {
  key: MOOGOLD_KEY,
  name: "MooGold",
  vendor: "moogold",
  balanceCurrency: "USD",
  capabilities: { findsByOurReference: true, reportsMaintenanceOnOrder: false },
  gameKey: "supplierGameId",
  takesOrdersFor: (game) => !!game.supplierGameId,
  // MooGold orders keep the variation id as their denom.
  itemKey: (item) => item.id ?? item.nameSupplier,
};

/** Spec §7 monkey validate answer: status 'true' is OK. */
export interface MoogoldValidateAnswer {
  status: "true" | "false";
  username: string;
  message: string;
}

/** The supplier port of a MooGold client. */
export function createMoogoldPort(client: MoogoldClient): SupplierPort {
  async function track(order: SupplierOrder): Promise<SupplierVerdict> {
    const r = order.supplierOrderId
      ? await client.orderDetail(Number(order.supplierOrderId))
      : await client.orderDetailByPartnerId(order.id);
    if (!r.ok) return { kind: "unknown", reason: classify(r).reason };
    return { kind: "accepted", supplierOrderId: String(r.value.orderId), status: r.value.status };
  }

  return {
    ...MOOGOLD_PROFILE,

    async prepareCreate(order) {
      const labels = await moogoldFields(client, Number(order.productId));
      if (!labels) return { kind: "unknown", reason: "MooGold product detail unavailable" };
      // MooGold orders keep the variation id as their denom.
      const variation = Number(order.denom);
      if (!Number.isSafeInteger(variation)) {
        return { kind: "failed", reason: "no MooGold variation id" };
      }
      return async () => {
        const r = await client.createOrder({
          variationId: variation,
          category: 1,
          fields: moogoldOrderFields(labels, order),
          partnerOrderId: order.id,
        });
        if (r.ok) {
          return { kind: "accepted", supplierOrderId: String(r.value.orderId), status: "pending" };
        }
        // 420: MooGold already holds an order under this reference; where it stands is the answer.
        if (r.kind === "supplier" && r.code === "420") return await track(order);
        return classify(r);
      };
    },

    track,

    async findByOurReference(orderId) {
      const r = await client.orderDetailByPartnerId(orderId);
      if (r.ok) {
        return {
          kind: "found",
          verdict: {
            kind: "accepted",
            supplierOrderId: String(r.value.orderId),
            status: r.value.status,
          },
        };
      }
      // Only MooGold's own answer says it holds no order under our reference.
      if (r.kind !== "supplier") return { kind: "unknown", reason: classify(r).reason };
      return { kind: "absent", reason: classify(r).reason };
    },

    async checkAccount(game, account): Promise<AccountCheckResult> {
      const productId = Number(game.supplierGameId);
      const detail = await client.productDetail(productId);
      if (!detail.ok) return { ok: false, unanswered: detail.message };
      const r = await client.validate(productId, validateFields(detail.value.fields, account));
      if (!r.ok && r.kind !== "supplier") return { ok: false, unanswered: r.message };
      // MooGold's own refusal is its answer on the account: not valid, in its words.
      const presented: MoogoldValidateAnswer = r.ok
        ? {
          status: r.value.valid ? "true" : "false",
          username: r.value.username ?? "",
          message: r.value.message,
        }
        : { status: "false", username: "", message: r.message };
      return {
        ok: true,
        answer: {
          valid: presented.status === "true",
          userName: presented.username,
          errorText: presented.message,
        },
        presented,
      };
    },

    async readOffer(game) {
      const id = productIdOf(game.supplierGameId);
      if (id === null) return null;
      const r = await client.productDetail(id);
      if (!r.ok) return null;
      const prefix = `${r.value.name} - `;
      return new Map(
        r.value.variations.map((v) => [v.name, {
          cost: v.price,
          id: String(v.id),
          name: v.name.startsWith(prefix) ? v.name.slice(prefix.length) : v.name,
        }]),
      );
    },

    async readServers(game) {
      const id = productIdOf(game.supplierGameId);
      if (id === null) return null;
      const r = await client.serverList(id);
      return r.ok ? r.value ?? {} : null;
    },

    async readBalance() {
      const r = await client.balance();
      return r.ok
        ? { ok: true, balance: r.value.balance, currency: r.value.currency }
        : balanceFailure(r);
    },

    async readLaunchDetails(game) {
      const d = await client.productDetail(Number(game));
      if (!d.ok) return null;
      return {
        fields: d.value.fields,
        supplierName: d.value.name,
        supplierNotes: "",
        supplierGameId: game,
      };
    },
  };
}
