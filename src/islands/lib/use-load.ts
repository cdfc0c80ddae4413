import { useEffect, useState } from "react";
import { failureText } from "./order-format.ts";

/** A list or detail being fetched, fetched, or failed with the text the screen shows. */
export type Loaded<T> =
  | { state: "loading" }
  | { state: "failed"; message: string }
  | { state: "ready"; value: T };

/** What `useLoad` gives: the load's state, and `reload` to fetch it again. */
export type Loading<T> = Loaded<T> & { reload: () => void };

/**
 * Runs `load` whenever `key` changes or `reload` is called. A failure keeps the error's text
 * (`failureText(action, …)` when an action is named) for an inline banner and also raises it as
 * a browser alert, as most failures do in spec §8. While a reload runs, the previous answer stays
 * on screen.
 */
export function useLoad<T>(load: () => Promise<T>, key: string, action?: string): Loading<T> {
  const [result, setResult] = useState<{ key: string; loaded: Loaded<T> } | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    // A slower answer for an earlier key must not overwrite the current one.
    let current = true;
    load().then(
      (value) => {
        if (current) setResult({ key, loaded: { state: "ready", value } });
      },
      (error: Error) => {
        if (!current) return;
        console.error(error);
        const message = action ? failureText(action, error) : error.message;
        setResult({ key, loaded: { state: "failed", message } });
        alert(message);
      },
    );
    return () => {
      current = false;
    };
  }, [key, version]);
  const reload = () => setVersion((n) => n + 1);
  // Until the answer for this key arrives, the previous key's answer is not shown.
  return { ...(result?.key === key ? result.loaded : { state: "loading" }), reload };
}
