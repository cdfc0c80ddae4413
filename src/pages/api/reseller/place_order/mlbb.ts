import type { APIRoute } from "astro";
import { handlePlaceOrder } from "../../../../server/place-order.ts";

export const POST: APIRoute = (context) => handlePlaceOrder(context, "mlbb");
