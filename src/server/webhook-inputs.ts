// Bodies of the reseller's webhook settings calls (beyond the spec).
import { z } from "zod";

/** PUT /api/reseller/webhook. */
export const WebhookUrlInput = z.object({
  url: z.string().trim().min(1, "Enter a callback URL").max(2000, "The callback URL is too long"),
});
