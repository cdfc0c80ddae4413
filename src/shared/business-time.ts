// The business's clock. The shop sells in SGD from Singapore and its dashboard counts Singapore
// days, so every date the admin console and the reseller portal show, and their spreadsheets and
// emails, is Singapore time, whatever the zone of the viewer's browser or of the server: a table's
// dates, the dashboard's hours and an export's cells read the same clock, and the screens say so.
import { format } from "date-fns";

/** Singapore's offset from UTC: fixed, it has kept no daylight saving since 1982. */
export const BUSINESS_UTC_OFFSET_HOURS = 8;

/** What the consoles say of every time they show. */
export const BUSINESS_TIME_NOTE = "Times in Singapore time (UTC+8)";

/** Spec §9 'd MMM yyyy, h:mm a'; `aaa` gives the example's lower-case "pm" ("5 Jan 2025, 3:04 pm"). */
export const DATE_FORMAT = "d MMM yyyy, h:mm aaa";

const OFFSET_MS = BUSINESS_UTC_OFFSET_HOURS * 3_600_000;

/**
 * `at` moved by the business's offset, so its UTC fields are Singapore's wall clock: a
 * spreadsheet's date cell (Excel dates have no zone) and the dashboard's day and hour arithmetic.
 */
export function businessWallClock(at: Date | string): Date {
  return new Date(new Date(at).getTime() + OFFSET_MS);
}

/**
 * A Date whose local calendar reads Singapore's wall clock. date-fns formats a date's local
 * fields, so a date of this class formats as business time in any zone; these are every getter its
 * `format` reads.
 */
class BusinessDate extends Date {
  #wall(): Date {
    return businessWallClock(this);
  }
  override getFullYear(): number {
    return this.#wall().getUTCFullYear();
  }
  override getMonth(): number {
    return this.#wall().getUTCMonth();
  }
  override getDate(): number {
    return this.#wall().getUTCDate();
  }
  override getDay(): number {
    return this.#wall().getUTCDay();
  }
  override getHours(): number {
    return this.#wall().getUTCHours();
  }
  override getMinutes(): number {
    return this.#wall().getUTCMinutes();
  }
  override getSeconds(): number {
    return this.#wall().getUTCSeconds();
  }
  override getMilliseconds(): number {
    return this.#wall().getUTCMilliseconds();
  }
  override getTimezoneOffset(): number {
    return -BUSINESS_UTC_OFFSET_HOURS * 60;
  }
}

/** `at` in Singapore time with a date-fns `pattern` (default spec §9's). */
export function formatBusinessDate(at: Date | string, pattern: string = DATE_FORMAT): string {
  return format(new BusinessDate(new Date(at).getTime()), pattern);
}
