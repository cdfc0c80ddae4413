import { useState } from "react";
import { errorText } from "../games/draft.ts";

/** A settings form's save: busy while it runs, then 'Saved' or 'Fail to save settings. …'. */
export function useSettingsSave() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
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
  return { busy, message, setMessage, save };
}
