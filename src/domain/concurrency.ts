/**
 * Runs `task` over `items`, `width` at a time, and counts the items whose task threw (the rest of
 * the batch still runs). Reconciliation jobs use it so one slow or failing call does not stall
 * the others, without opening hundreds of outside calls at once.
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  width: number,
  task: (item: T) => Promise<void>,
  onProgress?: (done: number, total: number) => void,
): Promise<{ failed: number }> {
  const queue = [...items];
  let done = 0;
  let failed = 0;
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      try {
        await task(item);
      } catch {
        failed++;
      }
      onProgress?.(++done, items.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return { failed };
}
