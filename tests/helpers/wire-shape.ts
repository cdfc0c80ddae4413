// Compares the structure of two JSON values, not their contents: which keys are present and the
// JSON type of each value. A simulator's answer checked against a vendor's recorded answer of the
// same call fails when it drops or adds a key, or sends a number where the vendor sends a string
// ("1.55" vs 1.55, "true" vs true), whatever the values are.
//
// Paths name places in a value: `$` is the whole value, `.key` an object's key, `[]` every element
// of an array, `.*` every value of a map (an object keyed by data, such as name → price).

import { AssertionError } from "node:assert";

/** The JSON type of a value. */
export type JsonKind = "string" | "number" | "boolean" | "null" | "array" | "object";

/** Where the shapes may differ on purpose; every entry is a path as described above. */
export interface WireShapeOptions {
  /** Keys either side may lack: the vendor sends them only sometimes. */
  optional?: readonly string[];
  /** Values the actual side may send as null where the expected side has a value. */
  nullable?: readonly string[];
  /** Objects keyed by data: their keys are not compared; each value must match the expected values. */
  maps?: readonly string[];
}

/** The JSON type of `value`. */
export function jsonKind(value: unknown): JsonKind {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const kind = typeof value;
  if (kind === "string" || kind === "number" || kind === "boolean" || kind === "object") {
    return kind;
  }
  throw new TypeError(`not a JSON value: ${kind}`);
}

/**
 * Every way `actual` departs from the shape of `expected`, one line each ("$.total: missing",
 * "$.item[].price: string expected, number found"); empty when the shapes agree.
 *
 * An array's elements (and a map's values) are each compared with the first expected element of
 * the same JSON type, so an array may mix types only where the expected one does; an empty
 * expected array says nothing about its elements.
 */
export function wireShapeDifferences(
  expected: unknown,
  actual: unknown,
  options: WireShapeOptions = {},
): string[] {
  const optional = new Set(options.optional);
  const nullable = new Set(options.nullable);
  const maps = new Set(options.maps);
  const differences: string[] = [];

  function compareElements(expectedItems: unknown[], actualItems: unknown[], path: string) {
    if (expectedItems.length === 0) return;
    for (const item of actualItems) {
      const kind = jsonKind(item);
      const template = expectedItems.find((candidate) => jsonKind(candidate) === kind);
      if (template !== undefined) compare(template, item, path);
      else if (!(kind === "null" && nullable.has(path))) {
        const kinds = [...new Set(expectedItems.map(jsonKind))].join(" or ");
        differences.push(`${path}: ${kinds} expected, ${kind} found`);
      }
    }
  }

  function compare(expectedValue: unknown, actualValue: unknown, path: string): void {
    const expectedKind = jsonKind(expectedValue);
    const actualKind = jsonKind(actualValue);
    if (expectedKind !== actualKind) {
      if (!(actualKind === "null" && nullable.has(path))) {
        differences.push(`${path}: ${expectedKind} expected, ${actualKind} found`);
      }
      return;
    }
    if (expectedKind === "array") {
      compareElements(expectedValue as unknown[], actualValue as unknown[], `${path}[]`);
    } else if (expectedKind === "object") {
      const expectedObject = expectedValue as Record<string, unknown>;
      const actualObject = actualValue as Record<string, unknown>;
      if (maps.has(path)) {
        compareElements(Object.values(expectedObject), Object.values(actualObject), `${path}.*`);
        return;
      }
      for (const key of new Set([...Object.keys(expectedObject), ...Object.keys(actualObject)])) {
        const keyPath = `${path}.${key}`;
        if (!(key in actualObject)) {
          if (!optional.has(keyPath)) differences.push(`${keyPath}: missing`);
        } else if (!(key in expectedObject)) {
          if (!optional.has(keyPath)) differences.push(`${keyPath}: not in the recorded answer`);
        } else {
          compare(expectedObject[key], actualObject[key], keyPath);
        }
      }
    }
  }

  compare(expected, actual, "$");
  return differences;
}

/** Throws, listing every difference, unless `actual` has the shape of `expected`. */
export function assertSameWireShape(
  actual: unknown,
  expected: unknown,
  options: WireShapeOptions = {},
  message = "the answer's shape differs from the recorded answer",
): void {
  const differences = wireShapeDifferences(expected, actual, options);
  if (differences.length > 0) {
    throw new AssertionError({ message: `${message}:\n  ${differences.join("\n  ")}` });
  }
}
