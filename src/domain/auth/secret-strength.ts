// Is a machine secret (APP_SECRET, METRICS_TOKEN, INBOUND_MAIL_SECRET) random, or something a
// person typed in its place? An entropy bound plus a deny-list: a password estimator such as
// zxcvbn is the wrong judge here, as it rates "your-app-secret-goes-here-please-change" (seven
// dictionary words) near a random 32-character hex key and underrates random base64, and it takes
// hundreds of milliseconds per long string at every start of every process.

/** The bits a secret must carry at least, counted as random characters of its alphabet. */
export const SECRET_MIN_BITS = 96;

/**
 * Fragments of the placeholders people leave in example files. Five letters or more: a random
 * base64 string holds one of them about once in 100,000 keys.
 */
const PLACEHOLDER_WORDS = [
  "change",
  "replace",
  "secret",
  "placeholder",
  "example",
  "sample",
  "dummy",
  "default",
  "insecure",
  "password",
  "token",
  "please",
  "xxxxx",
  // Keyboard rows.
  "qwert",
  "asdfg",
  "zxcvb",
];

/** The size of the smallest usual alphabet the value's characters come from. */
function alphabetSize(value: string): number {
  if (/^[0-9]+$/.test(value)) return 10;
  if (/^[0-9a-f]+$/.test(value) || /^[0-9A-F]+$/.test(value)) return 16;
  if (/^[a-z]+$/.test(value) || /^[A-Z]+$/.test(value)) return 26;
  if (/^[0-9a-z]+$/.test(value) || /^[0-9A-Z]+$/.test(value)) return 36;
  if (/^[0-9A-Za-z]+$/.test(value)) return 62;
  if (/^[0-9A-Za-z+/=_-]+$/.test(value)) return 64;
  return 94;
}

/** Whether most of the value repeats itself at some shift (a block typed again and again). */
function repeatsItself(value: string): boolean {
  for (let shift = 1; shift <= value.length / 2; shift++) {
    let same = 0;
    for (let i = 0; i + shift < value.length; i++) if (value[i] === value[i + shift]) same++;
    if (same >= 0.75 * (value.length - shift)) return true;
  }
  return false;
}

/**
 * Whether most neighbours are the same character or the next one up or down ("0123…", "aaaa"):
 * in random hex about one step in five is, so seven in ten never happens by chance.
 */
function runsInSequence(value: string): boolean {
  let steps = 0;
  for (let i = 1; i < value.length; i++) {
    if (Math.abs(value.charCodeAt(i) - value.charCodeAt(i - 1)) <= 1) steps++;
  }
  return steps > 0.7 * (value.length - 1);
}

/**
 * Why `value` is not fit to be a secret, in words for the operator, or null when it looks random:
 * no placeholder word or keyboard row, no repeated block or run, at least 8 different characters and
 * SECRET_MIN_BITS counted over its alphabet (32 hex characters carry 128, 24 base64 ones 144).
 */
export function secretWeakness(value: string): string | null {
  const lower = value.toLowerCase();
  const word = PLACEHOLDER_WORDS.find((w) => lower.includes(w));
  if (word) return `looks like a placeholder (it contains "${word}")`;
  if (repeatsItself(value)) return "repeats itself";
  if (runsInSequence(value)) return "runs in sequence";
  if (new Set(value).size < 8) return "has fewer than 8 different characters";
  const bits = Math.floor(value.length * Math.log2(alphabetSize(value)));
  if (bits < SECRET_MIN_BITS) return `carries about ${bits} bits, fewer than ${SECRET_MIN_BITS}`;
  return null;
}
