import type { APIRoute } from "astro";
import { handleLogin } from "../../server/login.ts";

export const POST: APIRoute = (context) => handleLogin(context, "reseller");
