import type { APIRoute } from "astro";
import { UnauthenticatedError } from "../../domain/errors.ts";

export const GET: APIRoute = ({ locals }) => {
  const session = locals.session;
  if (!session || session.stage !== "active") {
    throw new UnauthenticatedError("Please sign in");
  }
  return Response.json({ user: session.user });
};
