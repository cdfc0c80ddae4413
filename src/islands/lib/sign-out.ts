import { callApi } from "./api.ts";

/** Ends the session on the server, then goes to the role's sign-in (spec §4: logout redirects by role). */
export async function signOut(role: "admin" | "reseller"): Promise<void> {
  try {
    await callApi("POST", "/api/logout");
  } finally {
    location.replace(role === "admin" ? "/admin" : "/resellers");
  }
}
