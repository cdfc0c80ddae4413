// The Create Reseller form's own checks: a message per field, so an empty or
// mistyped submit is answered beside the fields instead of by the browser's popup.
import assert from "node:assert/strict";
import { resellerFormProblems } from "../../src/islands/admin/users/reseller-checks.ts";

const COMPLETE = {
  name: "Eve Reseller",
  email: "eve@resell.example",
  password: "a long password",
  balance: "100",
  markup: { mlbb: "5", mlbb_global: "6", mlbb_special: "7.5" },
};

Deno.test("[reseller form] a complete form has no problem; a blank balance or game markup is fine", () => {
  assert.deepEqual([...resellerFormProblems(COMPLETE, false)], []);
  const blanks = { ...COMPLETE, balance: "", markup: { ...COMPLETE.markup, pubgm: " " } };
  assert.deepEqual([...resellerFormProblems(blanks, false)], []);
});

Deno.test("[reseller form] an empty form names every required field", () => {
  const empty = { name: " ", email: "", password: "", balance: "", markup: {} };
  assert.deepEqual(Object.fromEntries(resellerFormProblems(empty, false)), {
    name: "Name is required",
    email: "Email is required",
    password: "Password is required",
    "markup:mlbb": "Price Markup % is required",
    "markup:mlbb_global": "Price Markup % is required",
    "markup:mlbb_special": "Price Markup % is required",
  });
});

Deno.test("[reseller form] mistyped values: email, short password, balance, markups", () => {
  const wrong = {
    ...COMPLETE,
    email: "eve@resell",
    password: "short",
    balance: "-5",
    markup: { ...COMPLETE.markup, mlbb: "-1", pubgm: "abc" },
  };
  assert.deepEqual(Object.fromEntries(resellerFormProblems(wrong, false)), {
    email: "Please enter a valid email address",
    password: "Password must be at least 8 characters",
    balance: "Please enter an amount of 0 or more, in dollars and cents",
    "markup:mlbb": "Please enter a percent of 0 or more",
    "markup:pubgm": "Please enter a percent of 0 or more",
  });
});

Deno.test("[reseller form] editing: a blank password keeps the current one, the balance is not typed", () => {
  const editing = { ...COMPLETE, password: "", balance: "not typed here" };
  assert.deepEqual([...resellerFormProblems(editing, true)], []);
  assert.equal(
    resellerFormProblems({ ...editing, password: "short" }, true).get("password"),
    "Password must be at least 8 characters",
  );
});
