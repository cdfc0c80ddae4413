// Readers of environment variables shared by config.ts and each supplier's registration (its own
// variables are merged into the app's environment schema), so every variable reads and refuses
// the same way.
import { z } from "zod";

/** A yes/no variable: 1/0, true/false, yes/no, on/off. */
export const bool = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off"], {
    error: "expected true or false",
  })
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

/** A URL starting with one of `protocols`. */
export const url = (protocols: string[]) =>
  z.url({ error: `expected a URL starting with ${protocols.join(" or ")}` })
    .refine((v) => protocols.some((p) => v.startsWith(p)), {
      error: `expected a URL starting with ${protocols.join(" or ")}`,
    });

/** An outside service's mode: its mounted simulator, or the real service. */
export const serviceMode = z.enum(["simulator", "live"], {
  error: "expected 'simulator' or 'live'",
});

export type ServiceMode = z.output<typeof serviceMode>;
