// The pill tabs of the admin screens (spec §2: Users, Orders, Edit game …): in-page state, not the
// URL, announced as a tab list.
export interface TabListProps<K extends string> {
  /** What the tabs switch, read out for the list, e.g. "Orders". */
  label: string;
  /** The tabs: their key and label. */
  items: readonly { key: K; label: string }[];
  /** The tab shown now. */
  current: K;
  /** Called with the chosen tab's key. */
  onSelect: (key: K) => void;
  /** Whether a tab can be chosen now; all can unless given. */
  available?: (key: K) => boolean;
}

export function TabList<K extends string>(
  { label, items, current, onSelect, available }: TabListProps<K>,
) {
  return (
    <div class="ag-tabs" role="tablist" aria-label={label}>
      {items.map(({ key, label }) => (
        <button
          key={key}
          type="button"
          role="tab"
          aria-selected={current === key}
          disabled={available ? !available(key) : undefined}
          onClick={() => onSelect(key)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
