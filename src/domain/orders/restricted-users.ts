// Spec §2 Settings › 'Restricted Users for mlbb Package', §5: accounts that always get the
// mlbb_special package when both checks pass (the choice itself is in verification.ts).
import type { Db } from "../../db/client.ts";
import {
  deleteRestrictedMlbbUser,
  findRestrictedMlbbUser,
  insertRestrictedMlbbUser,
  listRestrictedMlbbUsers,
} from "../../db/repositories/restricted-mlbb-users.ts";
import { insertAudit } from "../../db/repositories/audit-log.ts";
import type { RestrictedMlbbUserRow } from "../../db/schema.ts";
import { restrictedDuplicateMessage, type RestrictedUserDto } from "../../shared/admin-types.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import { formatBusinessDate } from "../../shared/business-time.ts";
import type { PublicAdmin } from "../auth/users.ts";

function present(row: RestrictedMlbbUserRow): RestrictedUserDto {
  return {
    _id: row.id,
    userID: row.user_id,
    serverID: row.server_id,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
  };
}

/** The restricted list (GET /api/restricted_mlbb_users), newest first. */
export async function listRestrictedUsers(db: Db): Promise<RestrictedUserDto[]> {
  return (await listRestrictedMlbbUsers(db)).map(present);
}

/**
 * Adds an account to the list with an audit row. A duplicate is a ConflictError with the spec's
 * text (the date in the server's time zone) and the entry's createdAt and createdBy, so the
 * browser can show the date in its own time zone.
 */
export async function addRestrictedUser(
  db: Db,
  admin: PublicAdmin,
  ids: { userID: string; serverID: string },
): Promise<RestrictedUserDto> {
  const userId = ids.userID.trim();
  const serverId = ids.serverID.trim();
  const added = await db.transaction().execute(async (trx) => {
    const row = await insertRestrictedMlbbUser(trx, {
      user_id: userId,
      server_id: serverId,
      created_by: admin.name,
    });
    if (row) {
      await insertAudit(trx, {
        actorType: "admin",
        actorId: admin._id,
        actorName: admin.name,
        action: "restricted_mlbb_user.create",
        targetType: "restricted_mlbb_user",
        targetId: row.id,
        after: { userID: row.user_id, serverID: row.server_id },
      });
    }
    return row;
  });
  if (added) return present(added);
  const existing = await findRestrictedMlbbUser(db, userId, serverId);
  if (!existing) throw new ConflictError("This user was just removed, please try again");
  throw new ConflictError(
    restrictedDuplicateMessage(formatBusinessDate(existing.created_at), existing.created_by),
    { createdAt: existing.created_at.toISOString(), createdBy: existing.created_by },
  );
}

/** Removes an account from the list with an audit row; an unknown id is a NotFoundError. */
export async function removeRestrictedUser(db: Db, admin: PublicAdmin, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const removed = await deleteRestrictedMlbbUser(trx, id);
    if (!removed) throw new NotFoundError("Restricted user not found");
    await insertAudit(trx, {
      actorType: "admin",
      actorId: admin._id,
      actorName: admin.name,
      action: "restricted_mlbb_user.delete",
      targetType: "restricted_mlbb_user",
      targetId: id,
      before: { userID: removed.user_id, serverID: removed.server_id, addedBy: removed.created_by },
    });
  });
}
