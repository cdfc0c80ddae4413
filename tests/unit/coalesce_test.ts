// Statements gathered per turn (src/db/coalesce.ts): the calls of one turn become one many-row
// call, a row never appears twice in one, and one row's failure is its own caller's.
import assert from "node:assert/strict";
import { coalesce, coalescePerHandle } from "../../src/db/coalesce.ts";

/** A many-row function that records the batches it was called with. */
function recorder(fail?: (input: string) => boolean) {
  const batches: string[][] = [];
  const many = (inputs: string[]) => {
    batches.push([...inputs]);
    if (fail && inputs.some(fail)) return Promise.reject(new Error(`bad ${inputs.join(",")}`));
    return Promise.resolve(inputs.map((input) => input.toUpperCase()));
  };
  return { batches, many };
}

Deno.test("calls made in one turn go out as one batch, each caller getting its own answer", async () => {
  const { batches, many } = recorder();
  const read = coalesce((s: string) => s, many);
  assert.deepEqual(await Promise.all(["a", "b", "c"].map(read)), ["A", "B", "C"]);
  assert.deepEqual(batches, [["a", "b", "c"]]);
  // A later turn is a batch of its own.
  assert.equal(await read("d"), "D");
  assert.deepEqual(batches, [["a", "b", "c"], ["d"]]);
});

Deno.test("a row already in the gathering batch goes into the next one, after it", async () => {
  const { batches, many } = recorder();
  const read = coalesce((s: string) => s, many);
  assert.deepEqual(await Promise.all(["a", "b", "a"].map(read)), ["A", "B", "A"]);
  assert.deepEqual(batches, [["a", "b"], ["a"]]);
});

Deno.test("when the batch fails, each call runs alone and only the failing one rejects", async () => {
  const { batches, many } = recorder((s) => s === "bad");
  const read = coalesce((s: string) => s, many);
  const results = await Promise.allSettled(["a", "bad", "c"].map(read));
  assert.deepEqual(results.map((r) => r.status), ["fulfilled", "rejected", "fulfilled"]);
  assert.deepEqual(results.map((r) => r.status === "fulfilled" ? r.value : undefined), [
    "A",
    undefined,
    "C",
  ]);
  assert.match(String((results[1] as PromiseRejectedResult).reason), /bad bad/);
  assert.deepEqual(batches, [["a", "bad", "c"], ["a"], ["bad"], ["c"]]);
});

Deno.test("batches are per handle and per group, never mixing the two", async () => {
  const seen: { handle: string; inputs: string[] }[] = [];
  const read = coalescePerHandle(
    (input: { group: string; id: string }) => input.group,
    (input) => input.id,
    (handle: { name: string }, inputs) => {
      seen.push({ handle: handle.name, inputs: inputs.map((i) => `${i.group}:${i.id}`) });
      return Promise.resolve(inputs.map((i) => i.id));
    },
  );
  const one = { name: "one" };
  const two = { name: "two" };
  await Promise.all([
    read(one, { group: "x", id: "1" }),
    read(two, { group: "x", id: "2" }),
    read(one, { group: "y", id: "3" }),
    read(one, { group: "x", id: "4" }),
  ]);
  assert.deepEqual(seen, [
    { handle: "one", inputs: ["x:1", "x:4"] },
    { handle: "two", inputs: ["x:2"] },
    { handle: "one", inputs: ["y:3"] },
  ]);
});

Deno.test("while two statements are out, new calls gather and go out together when one is back", async () => {
  const batches: string[][] = [];
  const answers: (() => void)[] = [];
  const read = coalesce((s: string) => s, (inputs: string[]) => {
    batches.push([...inputs]);
    return new Promise<string[]>((ok) => answers.push(() => ok(inputs)));
  });
  const turn = () => new Promise((ok) => setImmediate(ok));
  const results = [read("a"), read("b")];
  await turn();
  results.push(read("c"));
  await turn();
  results.push(read("d"));
  await turn();
  results.push(read("e"));
  await turn();
  assert.deepEqual(batches, [["a", "b"], ["c"]]);
  answers[0]();
  await turn();
  assert.deepEqual(batches, [["a", "b"], ["c"], ["d", "e"]]);
  answers[1]();
  answers[2]();
  assert.deepEqual(await Promise.all(results), ["a", "b", "c", "d", "e"]);
});

Deno.test("calls without a key never wait for one another: a read may hold one row twice", async () => {
  const { batches, many } = recorder();
  const read = coalesce(undefined, many);
  assert.deepEqual(await Promise.all(["a", "a", "b"].map(read)), ["A", "A", "B"]);
  assert.deepEqual(batches, [["a", "a", "b"]]);
});
