import { useState } from "react";
import { callApi } from "./lib/api.ts";
import { useHydrated } from "./lib/hydrated.ts";

export interface TwoFactorProps {
  /** The signed-in account's email, sent as `user` (the server ignores it and uses the session). */
  username: string;
  /** QR code data URL while enrolling; absent when the account already has an authenticator. */
  qr?: string;
  /** The base32 secret shown under the QR code while enrolling. */
  secret?: string;
}

/**
 * Spec §4: after more than 2 failed codes the route is replaced with /. The flag tells / to say
 * why: the attempt ended and sign-in starts again.
 */
const MAX_FAILURES = 2;

export default function TwoFactor({ username, qr, secret }: TwoFactorProps) {
  const [step, setStep] = useState<"qr" | "code">(qr ? "qr" : "code");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [failures, setFailures] = useState(0);
  const hydrated = useHydrated();

  async function verify(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    // Read from the form so a code typed before the script loaded still counts.
    const code = String(new FormData(form).get("code") ?? "").trim();
    if (!code) {
      setError(
        "Please enter the verification code as shown in your Authenticator App",
      );
      return;
    }
    setBusy(true);
    setError("");
    try {
      await callApi("POST", "/api/verify-totp", {
        user: username,
        secret,
        code,
      });
      location.replace("/home");
    } catch {
      const count = failures + 1;
      setFailures(count);
      setBusy(false);
      form.reset();
      if (count > MAX_FAILURES) {
        location.replace("/?signin=ended");
        return;
      }
      setError("Verification failed, Please try again.");
    }
  }

  if (step === "qr") {
    return (
      <div class="panel auth-card">
        <h1>Set up two-factor</h1>
        <p class="muted">
          Scan this QR code with your Authenticator App. Take a screenshot of the QR code and keep
          it safe; do not reuse it for another account.
        </p>
        <img
          class="qr"
          src={qr}
          alt="Two-factor QR code"
          width={240}
          height={240}
        />
        {secret && (
          // Groups of four to read off and type; the gaps are margins, not spaces, so a copy of
          // the secret is the secret alone.
          <p class="secret" aria-label="Secret key">
            {secret.match(/.{1,4}/g)!.map((group, i) => <span key={i}>{group}</span>)}
          </p>
        )}
        <div class="actions">
          <button class="btn" type="button" onClick={() => setStep("code")}>
            Done
          </button>
        </div>
      </div>
    );
  }

  return (
    <form class="panel auth-card" method="post" onSubmit={verify} noValidate>
      <h1>Verification code</h1>
      <p class="muted">
        Enter the 6-digit code shown in your Authenticator App.
      </p>
      <label for="code">Verification code</label>
      <input
        id="code"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
      />
      {error && <p class="error" role="alert">{error}</p>}
      <div class="actions">
        {qr && (
          <button
            class="btn-secondary"
            type="button"
            onClick={() => setStep("qr")}
          >
            Back to QR Code
          </button>
        )}
        <button class="btn" type="submit" disabled={busy || !hydrated} aria-busy={!hydrated}>
          {busy ? "Verifying…" : "Verify"}
        </button>
      </div>
    </form>
  );
}
