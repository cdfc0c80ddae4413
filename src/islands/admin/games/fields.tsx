// Labelled form fields for the edit-game tabs. Text fields are controlled by the draft; number
// and list fields keep the typed text locally so that "1." or "Android, " can be typed, and
// hand the draft a parsed value (numbers are sent as numbers, spec §5).
import { useEffect, useState } from "react";

export interface TextFieldProps {
  /** The visible label, also the field's accessible name. */
  label: string;
  /** The current text. */
  value: string;
  /** Called with the new text on every keystroke. */
  onChange: (value: string) => void;
  /** Renders a textarea instead of a one-line input. */
  multiline?: boolean;
  /** Greyed hint shown while empty. */
  placeholder?: string;
}

export function TextField({ label, value, onChange, multiline, placeholder }: TextFieldProps) {
  return (
    <label>
      {label}
      {multiline
        ? (
          <textarea
            rows={4}
            value={value}
            placeholder={placeholder}
            onInput={(e) => onChange(e.currentTarget.value)}
          />
        )
        : (
          <input
            type="text"
            value={value}
            placeholder={placeholder}
            onInput={(e) => onChange(e.currentTarget.value)}
          />
        )}
    </label>
  );
}

export interface NumberInputProps {
  /** Accessible name, for an input without a label element around it. */
  ariaLabel?: string;
  /** The current number. */
  value: number;
  /** Called with the parsed number; an empty field counts as 0. */
  onChange: (value: number) => void;
  /** Restricts input to whole numbers. */
  integer?: boolean;
}

export function NumberInput({ ariaLabel, value, onChange, integer }: NumberInputProps) {
  const [text, setText] = useState(String(value));
  useEffect(() => {
    if (Number(text) !== value) setText(String(value));
  }, [value]);
  return (
    <input
      type="number"
      class="ag-number"
      aria-label={ariaLabel}
      min={0}
      step={integer ? 1 : "any"}
      value={text}
      onInput={(e) => {
        const typed = e.currentTarget.value;
        setText(typed);
        onChange(typed.trim() === "" ? 0 : Number(typed));
      }}
    />
  );
}

export interface NumberFieldProps {
  /** The visible label, also the field's accessible name. */
  label: string;
  /** The current number. */
  value: number;
  /** Called with the parsed number; an empty field counts as 0. */
  onChange: (value: number) => void;
  /** Restricts input to whole numbers. */
  integer?: boolean;
}

export function NumberField({ label, ...input }: NumberFieldProps) {
  return (
    <label>
      {label}
      <NumberInput {...input} />
    </label>
  );
}

export interface CheckboxFieldProps {
  /** The text beside the box, also its accessible name. */
  label: string;
  /** Whether the box is ticked. */
  checked: boolean;
  /** Called with the new state. */
  onChange: (checked: boolean) => void;
}

export function CheckboxField({ label, checked, onChange }: CheckboxFieldProps) {
  return (
    <label class="ag-check">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      {label}
    </label>
  );
}

export interface ListFieldProps {
  /** The visible label, also the field's accessible name. */
  label: string;
  /** The current entries. */
  value: string[];
  /** Called with the comma-separated entries, trimmed, empty ones dropped. */
  onChange: (value: string[]) => void;
  /** Greyed hint shown while empty. */
  placeholder?: string;
}

export function ListField({ label, value, onChange, placeholder }: ListFieldProps) {
  const [text, setText] = useState(value.join(", "));
  const parse = (typed: string) => typed.split(",").map((s) => s.trim()).filter(Boolean);
  useEffect(() => {
    if (parse(text).join("\n") !== value.join("\n")) setText(value.join(", "));
  }, [value]);
  return (
    <TextField
      label={label}
      value={text}
      placeholder={placeholder}
      onChange={(typed) => {
        setText(typed);
        onChange(parse(typed));
      }}
    />
  );
}
