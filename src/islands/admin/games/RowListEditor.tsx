// An editable list of small text records (FAQ entries, links, servers) with Add and Remove.

export interface RowField<T> {
  /** The record property this field edits. */
  key: keyof T & string;
  /** The field's label (numbered per row for its accessible name). */
  label: string;
  /** Renders a textarea instead of a one-line input. */
  multiline?: boolean;
}

export interface RowListEditorProps<T extends Record<string, string>> {
  /** The list's heading, also the accessible name of its group. */
  title: string;
  /** The records being edited. */
  rows: T[];
  /** The fields of one record, in display order. */
  fields: RowField<T>[];
  /** The record the Add button appends. */
  blank: T;
  /** Text of the Add button. */
  addLabel: string;
  /** Called with the whole new list after any edit. */
  onChange: (rows: T[]) => void;
}

export function RowListEditor<T extends Record<string, string>>(
  { title, rows, fields, blank, addLabel, onChange }: RowListEditorProps<T>,
) {
  const edit = (index: number, key: keyof T, value: string) =>
    onChange(rows.map((row, i) => i === index ? { ...row, [key]: value } : row));
  return (
    <fieldset class="ag-rowlist">
      <legend>{title}</legend>
      {rows.length === 0 && <p class="muted">None yet.</p>}
      {rows.map((row, index) => (
        <div class="ag-rowlist-row" key={index}>
          {fields.map((field) => {
            const name = `${field.label} ${index + 1}`;
            return field.multiline
              ? (
                <textarea
                  key={field.key}
                  rows={2}
                  aria-label={name}
                  placeholder={field.label}
                  value={row[field.key]}
                  onInput={(e) => edit(index, field.key, e.currentTarget.value)}
                />
              )
              : (
                <input
                  key={field.key}
                  type="text"
                  aria-label={name}
                  placeholder={field.label}
                  value={row[field.key]}
                  onInput={(e) => edit(index, field.key, e.currentTarget.value)}
                />
              );
          })}
          <button
            type="button"
            class="btn-secondary ag-remove"
            aria-label={`Remove ${title} ${index + 1}`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <button type="button" class="btn-secondary" onClick={() => onChange([...rows, { ...blank }])}>
        {addLabel}
      </button>
    </fieldset>
  );
}
