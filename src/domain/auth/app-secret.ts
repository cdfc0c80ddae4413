import { randomBytes } from "node:crypto";
import type { Db } from "../../db/client.ts";
import { getOrInitSetting } from "../../db/repositories/settings.ts";
import { createSecretBox, type SecretBox } from "./secret-box.ts";

const BOX_KEY = Symbol.for("topup.secretBox");

/**
 * The box that seals TOTP secrets. Production requires APP_SECRET (config enforces it); a demo
 * without one keeps a generated key in the settings table so every instance on that database
 * agrees on it.
 */
export function getSecretBox(
  db: Db,
  appSecret: string | undefined,
): Promise<SecretBox> {
  const g = globalThis as { [BOX_KEY]?: Promise<SecretBox> };
  g[BOX_KEY] ??= (async () => {
    const material = appSecret ??
      await getOrInitSetting(
        db,
        "demo_app_secret",
        randomBytes(32).toString("base64"),
      );
    return createSecretBox(material);
  })();
  return g[BOX_KEY];
}

/** Forgets the cached box (tests that switch databases in one process). */
export function resetSecretBox(): void {
  (globalThis as { [BOX_KEY]?: Promise<SecretBox> })[BOX_KEY] = undefined;
}
