import { useEffect, useState } from "react";

/** A list or detail being fetched, fetched, or failed with the text the screen shows. */
export type Loaded<T> =
  | { state: "loading" }
  | { state: "failed"; message: string }
  | { state: "ready"; value: T };

/**
 * Runs `load` whenever `key` changes. A failure keeps the error's message for an inline banner
 * and also raises it as a browser alert, as most failures do in spec §8.
 */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [result, setResult] = useState<{ key: string; loaded: Loaded<T> } | null>(null);
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
        setResult({ key, loaded: { state: "failed", message: error.message } });
        alert(error.message);
      },
    );
    return () => {
      current = false;
    };
  }, [key]);
  // Until the answer for this key arrives, the previous key's answer is not shown.
  return result?.key === key ? result.loaded : { state: "loading" };
}
