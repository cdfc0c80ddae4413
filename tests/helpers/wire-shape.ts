// Structural comparison of two wire answers: the same keys, with values of the same JSON types,
// at every depth, whatever the values are. Contract tests use it to hold a simulator to a vendor's
// recorded answer, so the simulator cannot drift from the format the client is tested against.
//
//   assertSameWireShape(simulatorAnswer, recordedAnswer, { ignore: ["address"] });
//
// Paths name a value from the root: "amount", "payments[].status", "errors.payment_methods[]".
// Array elements are compared as one shape: the keys and types seen across all of an array's
// elements, so a recorded list with a succeeded and a failed payment describes one payment shape.
// An empty array on either side says nothing about its elements and matches any array.

import assert from "node:assert/strict";

/** How to read a comparison. */
export interface WireShapeOptions {
  /**
   * Paths left out on both sides, with their subtrees: fields the recorded answer has only because
   * its request asked for them (an address, metadata), not part of the contract under test.
   */
  ignore?: string[];
  /** Paths that may be null on either side: documented as optional, filled in one example. */
  nullable?: string[];
}

/** The JSON type names of a value's shape, e.g. "string" or "number|string" when elements differ. */
type Leaf = string;

/** A value's shape: a leaf type, an object of shapes, or an array of one merged element shape. */
type Shape = Leaf | { object: Record<string, Shape> } | { array: Shape | null };

function shapeOf(value: unknown): Shape {
  if (value === null) return "null";
  if (Array.isArray(value)) {
    return { array: value.map(shapeOf).reduce<Shape | null>((a, b) => a ? merge(a, b) : b, null) };
  }
  if (typeof value === "object") {
    return {
      object: Object.fromEntries(Object.entries(value).map(([key, v]) => [key, shapeOf(v)])),
    };
  }
  return typeof value;
}

function describe(shape: Shape): string {
  if (typeof shape === "string") return shape;
  return "object" in shape ? "object" : "array";
}

/** One shape covering both: keys unioned, element shapes merged, differing leaves joined. */
function merge(a: Shape, b: Shape): Shape {
  if (typeof a === "object" && typeof b === "object") {
    if ("object" in a && "object" in b) {
      const object = { ...a.object };
      for (const [key, shape] of Object.entries(b.object)) {
        object[key] = key in object ? merge(object[key], shape) : shape;
      }
      return { object };
    }
    if ("array" in a && "array" in b) {
      return { array: a.array && b.array ? merge(a.array, b.array) : a.array ?? b.array };
    }
  }
  const names = new Set([...describe(a).split("|"), ...describe(b).split("|")]);
  return [...names].sort().join("|");
}

function compare(
  actual: Shape,
  expected: Shape,
  path: string,
  options: WireShapeOptions,
  differences: string[],
): void {
  const at = path || "(root)";
  if (options.nullable?.includes(path) && (actual === "null" || expected === "null")) return;
  if (typeof actual === "object" && typeof expected === "object") {
    if ("object" in actual && "object" in expected) {
      const keys = new Set([...Object.keys(actual.object), ...Object.keys(expected.object)]);
      for (const key of [...keys].sort()) {
        const child = path ? `${path}.${key}` : key;
        if (options.ignore?.includes(child)) continue;
        if (!(key in actual.object)) differences.push(`${child}: missing`);
        else if (!(key in expected.object)) {
          differences.push(`${child}: not in the recorded answer`);
        } else compare(actual.object[key], expected.object[key], child, options, differences);
      }
      return;
    }
    if ("array" in actual && "array" in expected) {
      if (actual.array && expected.array) {
        compare(actual.array, expected.array, `${path}[]`, options, differences);
      }
      return;
    }
  }
  if (describe(actual) !== describe(expected)) {
    differences.push(`${at}: ${describe(actual)}, recorded ${describe(expected)}`);
  }
}

/** Where `actual` differs in shape from `expected`, one line per path; empty when they agree. */
export function wireShapeDifferences(
  actual: unknown,
  expected: unknown,
  options: WireShapeOptions = {},
): string[] {
  const differences: string[] = [];
  compare(shapeOf(actual), shapeOf(expected), "", options, differences);
  return differences;
}

/** Fails, listing every difference, unless `actual` has the shape of the recorded `expected`. */
export function assertSameWireShape(
  actual: unknown,
  expected: unknown,
  options: WireShapeOptions = {},
): void {
  const differences = wireShapeDifferences(actual, expected, options);
  assert.deepEqual(differences, [], `not the recorded answer's shape:\n${differences.join("\n")}`);
}
