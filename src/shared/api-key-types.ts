// Reseller API keys as /api sends them. Types only: islands and server code share them.

/** A key as its owner or an admin sees it; the secret is never part of it. */
export interface ApiKeyDto {
  id: string;
  name: string;
  /** The secret's first characters, to tell keys apart. */
  prefix: string;
  createdAt: string;
  /** When the key was last used, to the minute. */
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The answer to creating a key: the only time the secret is sent. */
export interface CreatedApiKeyDto {
  key: ApiKeyDto;
  secret: string;
}

/** Every key's secret starts with this, so leaked keys are recognisable by scanners. */
export const API_KEY_SECRET_PREFIX = "tk_live_";
