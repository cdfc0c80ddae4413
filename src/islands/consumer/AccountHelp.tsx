// Where a buyer finds the account details the order form asks for: a sentence for every game, the
// game's supplier notes when the admin kept them, and its instructional image behind a toggle so
// the form stays short on a phone.
import type { ConsumerAccountHelp } from "../../shared/consumer-storefront.ts";

/** The id of the help sentence, which the User ID field names as its description. */
export const ACCOUNT_HELP_ID = "userid-help";

export function AccountHelp({ help, gameName }: { help: ConsumerAccountHelp; gameName: string }) {
  return (
    <div class="ct-account-help">
      <p id={ACCOUNT_HELP_ID}>
        <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
          <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="2" />
          <path d="M12 11v6M12 7.5v.5" stroke="currentColor" stroke-width="2.4" />
        </svg>
        <span>{help.text}</span>
      </p>
      {help.note && <p class="ct-account-note">{help.note}</p>}
      {help.image && (
        <details class="ct-faq">
          <summary>Where do I find my User ID?</summary>
          <img
            class="ct-instructions"
            src={help.image}
            alt={`Where to find your ${gameName} account ID`}
            loading="lazy"
          />
        </details>
      )}
    </div>
  );
}
