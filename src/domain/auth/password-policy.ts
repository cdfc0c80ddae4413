// The one rule for every password an admin or reseller sets (console, own account, CLI, the first
// admin from ADMIN_PASSWORD): at least 8 characters, not a password this repository publishes,
// and not easy to guess as zxcvbn-ts estimates it (NIST SP 800-63B: a minimum length and a check
// against known and guessable values, no composition rules). zxcvbn's dictionaries take about half
// a second to load, so they are loaded on the first password set, not at every start.

import { PUBLISHED_PASSWORDS } from "../../config.ts";
import { ValidationError } from "../errors.ts";

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;

/**
 * zxcvbn's score 3: "safely unguessable: moderate protection from offline slow-hash scenario"
 * (10^8 guesses or more), with the owner's email and name counted as known words.
 */
const MIN_SCORE = 3;

/** zxcvbn reads this much of a password; a longer one is judged by its start. */
const ESTIMATED_LENGTH = 100;

interface Estimate {
  score: number;
  feedback: { warning: string | null; suggestions: string[] };
}

type Estimator = (password: string, knownWords: string[]) => Estimate;

let estimator: Promise<Estimator> | undefined;

function loadEstimator(): Promise<Estimator> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import("@zxcvbn-ts/core"),
      import("@zxcvbn-ts/language-common"),
      import("@zxcvbn-ts/language-en"),
    ]);
    const factory = new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
    });
    return (password, knownWords) => factory.check(password, knownWords);
  })();
  return estimator;
}

/** Whether `password` is one anyone can read here: a demo account's or an example's. */
export function isPublishedPassword(password: string): boolean {
  const typed = password.normalize("NFKC");
  return PUBLISHED_PASSWORDS.some((published) => published === typed);
}

/** Who the password is for: their email and name are the first words a guesser tries. */
export interface PasswordOwner {
  email?: string;
  name?: string;
}

function knownWordsOf(owner: PasswordOwner): string[] {
  const email = owner.email?.trim().toLowerCase() ?? "";
  const local = email.split("@")[0];
  return [email, local, ...local.split(/[._+-]/), ...(owner.name ?? "").split(/\s+/)]
    .filter((word) => word.length >= 3);
}

/**
 * Why `password` may not be set, as a sentence for the person setting it, or null when it may:
 * too short or long, published, or easy to guess (with zxcvbn's advice).
 */
export async function passwordWeakness(
  password: string,
  owner: PasswordOwner = {},
): Promise<string | null> {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) return "Password is too long";
  if (isPublishedPassword(password)) {
    return "This password is published (a demo or example password): choose one of your own";
  }
  const estimate = (await loadEstimator())(
    password.slice(0, ESTIMATED_LENGTH),
    knownWordsOf(owner),
  );
  if (estimate.score >= MIN_SCORE) return null;
  const advice = [estimate.feedback.warning, ...estimate.feedback.suggestions]
    .filter((line): line is string => Boolean(line));
  return [
    "Password is too easy to guess.",
    ...(advice.length ? advice : ["Add more words that are less common."]),
  ].join(" ");
}

/** Throws ValidationError with passwordWeakness's sentence unless `password` may be set. */
export async function assertPasswordAllowed(
  password: string,
  owner: PasswordOwner = {},
): Promise<void> {
  const weakness = await passwordWeakness(password, owner);
  if (weakness) throw new ValidationError(weakness);
}
