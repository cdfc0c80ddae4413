// The admin Consumers list (spec §2 Users › Consumers): search and delete. Consumers are the
// storefront's buyers, one per billing email; a delete is soft, so their orders keep their buyer.
import type { Db } from "../../db/client.ts";
import {
  type ConsumerListRow,
  listConsumers,
  softDeleteConsumer,
} from "../../db/repositories/consumers.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import type { ConsumerDto, ConsumersPage } from "../../shared/user-types.ts";
import { auditActor, type OperatorActor } from "../actor.ts";
import { NotFoundError } from "../errors.ts";

/** Consumers per page of GET /api/consumers. */
export const CONSUMER_PAGE_SIZE = 20;

function presentConsumer(row: ConsumerListRow): ConsumerDto {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    createdAt: row.created_at.toISOString(),
  };
}

/** One page of live consumers, newest first, whose name, email or phone contains `search`. */
export async function listConsumersPage(
  db: Db,
  options: { search: string; page: number },
): Promise<ConsumersPage> {
  const { rows, total } = await listConsumers(db, {
    search: options.search.trim(),
    limit: CONSUMER_PAGE_SIZE,
    offset: (options.page - 1) * CONSUMER_PAGE_SIZE,
  });
  return {
    consumers: rows.map(presentConsumer),
    total,
    page: options.page,
    pageSize: CONSUMER_PAGE_SIZE,
  };
}

/** An admin deletes a consumer (DELETE /api/user/{id}), audited with what was removed. */
export async function deleteConsumer(db: Db, id: string, actor: OperatorActor): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const removed = await softDeleteConsumer(trx, id);
    if (!removed) throw new NotFoundError("Consumer not found");
    await insertAudit(trx, {
      ...auditActor(actor),
      action: "consumer.delete",
      targetType: "consumer",
      targetId: id,
      before: presentConsumer(removed),
    });
  });
}
