import { type RefObject, useEffect, useState } from "react";

/**
 * False in the server's HTML and until this island's script has run, then true. A form's submit
 * button is disabled until then, so a press before the page is ready waits visibly instead of
 * posting the form natively: a reload that empties what was typed.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * Takes into the island's fields what was typed into the server's HTML before its script ran:
 * hydration leaves the typed text on screen, but the island's state starts empty and would clear
 * it on its next render. `fields` are keyed by the inputs' names.
 */
export function useTypedBeforeHydration(
  form: RefObject<HTMLFormElement>,
  fields: Record<string, { value: string }>,
): void {
  useEffect(() => {
    const elements = form.current?.elements;
    for (const [name, field] of Object.entries(fields)) {
      const typed = (elements?.namedItem(name) as HTMLInputElement | HTMLSelectElement | null)
        ?.value;
      if (typed && !field.value) field.value = typed;
    }
  }, []);
}
