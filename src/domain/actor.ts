// Who did something an operator may later ask about: the signed-in admin, or the person at the
// CLI. Audit rows carry it; ledger rows carry its name.
import { userInfo } from "node:os";
import type { AuditEntry } from "../db/repositories/audit-log.ts";
import { ValidationError } from "./errors.ts";

/** The operator behind a mutation: an admin, the person at the CLI, or the system itself. */
export interface OperatorActor {
  type: "admin" | "cli" | "system";
  /** The admin's id; none for the CLI or the system. */
  id?: string;
  /** The admin's name, or the CLI operator's login name. */
  name: string;
}

/** A reseller acting on its own account (its API keys). */
export interface ResellerActor {
  type: "reseller";
  id: string;
  name: string;
}

/** The signed-in reseller as an actor. */
export function resellerActor(reseller: { _id: string; name: string }): ResellerActor {
  return { type: "reseller", id: reseller._id, name: reseller.name };
}

/** The signed-in admin as an actor. */
export function adminActor(admin: { _id: string; name: string }): OperatorActor {
  return { type: "admin", id: admin._id, name: admin.name };
}

/**
 * The person running the CLI, by login name: $USER, else $LOGNAME (what cron sets), else the
 * account the process runs as. An audit row must name someone, so an account without a name
 * (a container's bare uid) is refused rather than recorded as nobody.
 */
export function cliActor(): OperatorActor {
  let name = Deno.env.get("USER") || Deno.env.get("LOGNAME");
  if (!name) {
    try {
      name = userInfo().username;
    } catch {
      // No passwd entry for this uid: nothing names the operator.
    }
  }
  if (!name) {
    throw new ValidationError(
      "Cannot tell who is running this command for the audit log: set USER to your login name",
    );
  }
  return { type: "cli", name };
}

/** The actor fields of an audit row. */
export function auditActor(
  actor: OperatorActor | ResellerActor,
): Pick<AuditEntry, "actorType" | "actorId" | "actorName"> {
  return { actorType: actor.type, actorId: actor.id, actorName: actor.name };
}
