import { z } from "zod";

/** Body of the EliteDias admin calls: the supplier's game code. */
export const EdGameInput = z.object({ game: z.string().trim().min(1).max(100) });

/** Body of the MooGold admin calls: the product id. */
export const MgProductInput = z.object({
  productID: z.union([
    z.string().trim().regex(/^\d+$/, "productID must be a number"),
    z.number().int().positive(),
  ]),
});
