// Spec §2 Emails, Sent tab: what the app sent (receipts), 10 a page, newest first; a row opens
// the message. The HTML body is shown in a sandboxed iframe: no script runs and it cannot reach
// the console's page or cookies. The Inbox tab, search, sorting, reply and delete come later.
import { useEffect, useState } from "react";
import type { EmailDto, EmailsPage } from "../../shared/email-types.ts";
import { callApi } from "../lib/api.ts";
import { formatDate } from "../reseller/format.ts";
import type { AdminViewProps } from "./types.ts";
import "../../styles/admin-games.css";
import "../../styles/admin-emails.css";

export type EmailsViewProps = AdminViewProps;

/** Spec §8 Emails failure banner. */
const LOAD_FAILED = "Failed to load emails. Please try again later.";

function EmailDetail({ email, onClose }: { email: EmailDto; onClose: () => void }) {
  return (
    <article class="em-detail" aria-label="Email">
      <h3>{email.subject}</h3>
      <dl>
        <dt>To</dt>
        <dd>{email.to}</dd>
        <dt>From</dt>
        <dd>{email.from}</dd>
        <dt>On</dt>
        <dd>{formatDate(email.date)}</dd>
      </dl>
      <iframe title={`Message: ${email.subject}`} sandbox="" srcDoc={email.body} />
      <button type="button" class="btn-secondary" onClick={onClose}>Close</button>
    </article>
  );
}

export default function EmailsView(_props: EmailsViewProps) {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<EmailsPage | null>(null);
  const [failed, setFailed] = useState(false);
  const [open, setOpen] = useState<EmailDto | null>(null);

  useEffect(() => {
    setFailed(false);
    callApi<EmailsPage>("GET", `/api/sent-emails?page=${page}`)
      .then(setData)
      .catch((error) => {
        console.error(error);
        setFailed(true);
      });
  }, [page]);

  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <section>
      <h2>Emails</h2>
      <div class="ag-tabs" role="tablist">
        <button type="button" role="tab" aria-selected="true">Sent</button>
      </div>
      {failed && <p class="em-banner" role="alert">{LOAD_FAILED}</p>}
      {open
        ? <EmailDetail email={open} onClose={() => setOpen(null)} />
        : data === null
        ? (!failed && <p class="muted">Loading...</p>)
        : data.emails.length === 0
        ? <p class="muted">No emails found</p>
        : (
          <>
            <div class="ag-scroll">
              <table class="ag-table">
                <thead>
                  <tr>
                    <th>To</th>
                    <th>From</th>
                    <th>Subject</th>
                    <th>Date</th>
                  </tr>
                </thead>
                <tbody>
                  {data.emails.map((email) => (
                    <tr
                      key={email.id}
                      class="ag-clickable"
                      tabIndex={0}
                      onClick={() => setOpen(email)}
                      onKeyDown={(e) => e.key === "Enter" && setOpen(email)}
                    >
                      <td>{email.to}</td>
                      <td>{email.from}</td>
                      <td>{email.subject}</td>
                      <td class="em-date">{formatDate(email.date)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {pageCount > 1 && (
              <nav class="em-pages" aria-label="Pages">
                <button
                  type="button"
                  class="btn-secondary"
                  disabled={page <= 1}
                  onClick={() => setPage(page - 1)}
                >
                  Previous
                </button>
                <span>Page {page} of {pageCount}</span>
                <button
                  type="button"
                  class="btn-secondary"
                  disabled={page >= pageCount}
                  onClick={() => setPage(page + 1)}
                >
                  Next
                </button>
              </nav>
            )}
          </>
        )}
    </section>
  );
}
