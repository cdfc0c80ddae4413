// One Save of a Settings form: busy while it runs, then "Saved" or the failure in the spec's words
// ('Fail to save settings', §8) with the server's reason, shown under the form.
import { useEffect, useState } from "react";
import { errorText } from "../games/draft.ts";
import { callApi } from "../../lib/api.ts";

/**
 * A Settings form's saved value, read once from `path`. Until it has arrived (or when it could
 * not be read) the form stays disabled: what an admin types is never overwritten by the answer
 * arriving late, and a Save pressed first never writes blanks over what was saved.
 */
export function useSettingsValue<T>(path: string, empty: T) {
  const [value, setValue] = useState<T>(empty);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  useEffect(() => {
    callApi<T>("GET", path).then((saved) => {
      setValue(saved);
      setState("ready");
    }, (error) => {
      console.error(error);
      setState("failed");
    });
  }, []);
  return { value, setValue, ready: state === "ready", failed: state === "failed" };
}

export function useSettingsSave() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  /** Runs `put`; it resolves once the server accepted the change. */
  const save = async (put: () => Promise<unknown>) => {
    setBusy(true);
    setMessage(null);
    try {
      await put();
      setMessage({ ok: true, text: "Saved" });
    } catch (error) {
      console.error(error);
      setMessage({ ok: false, text: `Fail to save settings. ${errorText(error)}` });
    } finally {
      setBusy(false);
    }
  };

  const shown = message && (
    <p class={message.ok ? "ap-ok" : "error"} role={message.ok ? "status" : "alert"}>
      {message.text}
    </p>
  );
  return { busy, save, setMessage, message: shown };
}
