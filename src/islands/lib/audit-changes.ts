// An audit row's change as lines a person reads: one changed field a line,
// "name: old → new", nested fields by their path ("packages › mlbb › markupConsumer: 5 → 6"),
// never JSON. Entries of a list are named by their own name where they have one, so a package or
// item keeps its label when the list is reordered. A supplier is named as its operators know it
// ("EliteDias"), not by the spec's code name ("elephant").
import { supplierDisplayName } from "../../shared/supplier-games.ts";

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The properties that name an entry of a list (a package, an item, a link, a question). */
const NAME_KEYS = ["name", "nameReseller", "supplierPackageName", "question", "id"];

function nameOf(entry: unknown): string | undefined {
  if (!isFields(entry)) return undefined;
  const key = NAME_KEYS.find((k) => typeof entry[k] === "string" && entry[k] !== "");
  return key ? entry[key] as string : undefined;
}

/** A list of fields as named entries; by position ("#1") when a name is missing or repeated. */
function namedEntries(list: unknown[]): Map<string, unknown> {
  const names = list.map(nameOf);
  const unique = names.every((n) => n !== undefined) && new Set(names).size === names.length;
  return new Map(list.map((entry, i) => [unique ? names[i]! : `#${i + 1}`, entry]));
}

const isFieldsList = (value: unknown): value is unknown[] =>
  Array.isArray(value) && value.length > 0 && value.every(isFields);

/** A value on one line: text as it is, a list by its entries' names or values, fields inline. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (typeof value === "string") return value === "" ? "(blank)" : value;
  if (Array.isArray(value)) {
    if (value.length === 0) return "none";
    return isFieldsList(value) ? [...namedEntries(value).keys()].join(", ") : value.map(shown)
      .join(", ");
  }
  if (isFields(value)) {
    const entries = Object.entries(value);
    return entries.length ? entries.map(([k, v]) => `${k}: ${shown(v)}`).join(", ") : "none";
  }
  return String(value);
}

function compare(path: string[], was: unknown, is: unknown, lines: string[]): void {
  const label = path.join(" › ");
  if (was === undefined && is === undefined) return;
  const bothFields = (isFields(was) || was === undefined) && (isFields(is) || is === undefined);
  // A new or removed group of fields is listed field by field; a changed one compared by field.
  if (bothFields) {
    const keys = new Set([...Object.keys(was ?? {}), ...Object.keys(is ?? {})]);
    for (const key of keys) {
      compare(
        [...path, key],
        (was as Fields | undefined)?.[key],
        (is as Fields | undefined)?.[key],
        lines,
      );
    }
    return;
  }
  if (isFieldsList(was) && isFieldsList(is)) {
    const before = namedEntries(was);
    const after = namedEntries(is);
    for (const [name, entry] of before) {
      if (!after.has(name)) lines.push(`${label} › ${name}: removed`);
      else compare([...path, name], entry, after.get(name), lines);
    }
    for (const name of after.keys()) {
      if (!before.has(name)) lines.push(`${label} › ${name}: added`);
    }
    return;
  }
  const text = (value: unknown) =>
    path.at(-1) === "supplier" && typeof value === "string"
      ? supplierDisplayName(value)
      : shown(value);
  if (was === undefined) lines.push(`${label}: ${text(is)}`);
  else if (is === undefined) lines.push(`${label}: ${text(was)}`);
  else if (text(was) !== text(is)) lines.push(`${label}: ${text(was)} → ${text(is)}`);
}

/**
 * The lines of an audit entry's change: each field that differs between `before` and `after`
 * ("name: old → new"), or each field of a target created (only `after`) or deleted (only
 * `before`) with its value.
 */
export function auditChangeLines(before: unknown, after: unknown): string[] {
  const lines: string[] = [];
  const root = (value: unknown) =>
    value === null || value === undefined ? undefined : isFields(value) ? value : { value };
  compare([], root(before), root(after), lines);
  return lines;
}
