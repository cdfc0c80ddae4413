export interface MenuButtonsProps {
  /** Menu entries: the view key and its label. */
  items: { key: string; label: string }[];
  /** The view shown now. */
  current: string;
  /** Called with the chosen view key. */
  onSelect: (key: string) => void;
}

/** The in-page view switcher used by the admin console and the reseller home (spec §2). */
export function MenuButtons({ items, current, onSelect }: MenuButtonsProps) {
  return (
    <>
      {items.map((item) => (
        <button
          key={item.key}
          type="button"
          aria-current={current === item.key ? "page" : undefined}
          onClick={() => onSelect(item.key)}
        >
          {item.label}
        </button>
      ))}
    </>
  );
}
