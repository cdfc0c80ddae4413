// The Create Reseller and reseller edit form's own checks: each field's message
// shown beside it, instead of the browser's popup on the first one. The server checks the same and
// more (the markup's ceiling, a name or email already taken); what it refuses still comes back as
// the spec's alert.
import { EMAIL_PATTERN } from "../../../shared/consumer-storefront.ts";
import { REQUIRED_MARKUP_KEYS } from "../../../shared/user-types.ts";

/** The password length the server asks for. */
const MIN_PASSWORD_LENGTH = 8;

/** What the form holds, as typed. */
export interface ResellerFormValues {
  name: string;
  email: string;
  password: string;
  balance: string;
  markup: Record<string, string>;
}

/** A field's key in the problems: a detail's name, or `markup:` and the supplier key. */
export const markupField = (key: string) => `markup:${key}`;

const AMOUNT = /^\d+(\.\d{1,2})?$/;
const PERCENT = /^\d+(\.\d+)?$/;

/**
 * The form's problems by field (empty when it may be sent). `editing`: the
 * password may stay blank (unchanged) and the balance is not typed.
 */
export function resellerFormProblems(
  values: ResellerFormValues,
  editing: boolean,
): Map<string, string> {
  const problems = new Map<string, string>();
  if (!values.name.trim()) problems.set("name", "Name is required");
  if (!values.email.trim()) problems.set("email", "Email is required");
  else if (!EMAIL_PATTERN.test(values.email.trim())) {
    problems.set("email", "Please enter a valid email address");
  }
  if (!editing && !values.password) problems.set("password", "Password is required");
  else if (values.password && values.password.length < MIN_PASSWORD_LENGTH) {
    problems.set("password", `Password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  if (!editing && values.balance.trim() && !AMOUNT.test(values.balance.trim())) {
    problems.set("balance", "Please enter an amount of 0 or more, in dollars and cents");
  }
  const markups = new Set([...REQUIRED_MARKUP_KEYS, ...Object.keys(values.markup)]);
  for (const key of markups) {
    const typed = (values.markup[key] ?? "").trim();
    if (!typed) {
      if ((REQUIRED_MARKUP_KEYS as readonly string[]).includes(key)) {
        problems.set(markupField(key), "Price Markup % is required");
      }
    } else if (!PERCENT.test(typed)) {
      problems.set(markupField(key), "Please enter a percent of 0 or more");
    }
  }
  return problems;
}
