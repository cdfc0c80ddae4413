import { useEffect, useState } from "react";

/** Spec §2: the console and reseller home set a mobile flag at 760 px wide or less. */
export const MOBILE_MAX_WIDTH = 760;

/** Tracks whether the window is at most `maxWidth` pixels wide. */
export function useNarrow(maxWidth = MOBILE_MAX_WIDTH): boolean {
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const query = matchMedia(`(max-width: ${maxWidth}px)`);
    const update = () => setNarrow(query.matches);
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, [maxWidth]);
  return narrow;
}
