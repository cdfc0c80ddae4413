import { useState } from "react";
import { ApiError, callApi } from "./lib/api.ts";
import { useHydrated } from "./lib/hydrated.ts";

export interface SignInProps {
  /** Which sign-in this is: decides the endpoint and the home page. */
  userType: "admin" | "reseller";
}

interface LoginResponse {
  user: { twoFAEnabled: boolean };
  verified2FA?: boolean;
  twoFARequired?: boolean;
}

/** Reads a field from the submitted form: typed-before-hydration and autofilled values count. */
function fieldValue(form: HTMLFormElement, name: string): string {
  return String(new FormData(form).get(name) ?? "");
}

export default function SignIn({ userType }: SignInProps) {
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();

  async function submit(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const email = fieldValue(form, "email").trim().toLowerCase();
    const password = fieldValue(form, "password");
    if (!email || !password) {
      setError("Please fill in email and password");
      return;
    }
    setError("");
    setBusy(true);
    try {
      await callApi("POST", "/api/logout").catch(() => undefined);
      const path = userType === "admin" ? "/api/login_admin" : "/api/login_reseller";
      const result = await callApi<LoginResponse>("POST", path, { username: email, password });
      if (result.verified2FA) {
        location.replace(userType === "admin" ? "/admin/home" : "/resellers/home");
      } else {
        location.assign("/2fa");
      }
    } catch (e) {
      if (!(e instanceof ApiError)) console.error(e);
      setError("Please check your email or password.");
      setBusy(false);
    }
  }

  // method="post": a submit never puts the password in a URL; and Sign In waits, disabled, until
  // the script runs, so an early press does not post the form natively and reload it empty.
  return (
    <form class="panel auth-card" method="post" onSubmit={submit} noValidate>
      <h1>{userType === "admin" ? "Admin Sign In" : "Reseller Sign In"}</h1>
      <p class="muted">Sign in with your email and password.</p>
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autoComplete="username" />
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autoComplete="current-password" />
      {error && <p class="error" role="alert">{error}</p>}
      <div class="actions">
        <button class="btn" type="submit" disabled={busy || !hydrated} aria-busy={!hydrated}>
          {busy ? "Signing in…" : "Sign In"}
        </button>
      </div>
    </form>
  );
}
