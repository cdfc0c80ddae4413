// Spec §2 Emails: Inbox and Sent tabs, searched, sorted and paged on the server (10 a page); a
// row opens the message, a reply goes back by SMTP, a delete asks first. A message's HTML body
// was sanitized by the server and is shown in a sandboxed frame that runs no script and loads
// nothing from outside the message (src/shared/email-frame.ts).
import { useEffect, useState } from "react";
import {
  type EmailDto,
  type EmailFolder,
  type EmailSortKey,
  type EmailsPage,
  EMPTY_REPLY_TEXT,
} from "../../shared/email-types.ts";
import { EMAIL_FRAME_SANDBOX, emailFrameDocument } from "../../shared/email-frame.ts";
import { callApi } from "../lib/api.ts";
import { ConfirmDialog } from "../lib/ConfirmDialog.tsx";
import { formatDate } from "../lib/order-format.ts";
import { Pagination } from "../lib/Pagination.tsx";
import { errorText, failureText } from "./games/draft.ts";
import type { AdminViewProps } from "./types.ts";
import "../../styles/admin-games.css";
import "../../styles/admin-emails.css";

export type EmailsViewProps = AdminViewProps;

/** Spec §8 Emails failure banner. */
const LOAD_FAILED = "Failed to load emails. Please try again later.";

const FOLDERS: { folder: EmailFolder; label: string; path: string }[] = [
  { folder: "inbox", label: "Inbox", path: "/api/emails" },
  { folder: "sent", label: "Sent", path: "/api/sent-emails" },
];

const COLUMNS: { key: EmailSortKey; label: string }[] = [
  { key: "to", label: "To" },
  { key: "from", label: "From" },
  { key: "subject", label: "Subject" },
  { key: "date", label: "Date" },
];

interface Sort {
  key: EmailSortKey;
  dir: "asc" | "desc";
}

interface EmailDetailProps {
  email: EmailDto;
  folder: EmailFolder;
  onClose: () => void;
  onReplied: () => void;
}

function EmailDetail({ email, folder, onClose, onReplied }: EmailDetailProps) {
  const [replying, setReplying] = useState(false);
  const [reply, setReply] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  const send = async () => {
    setSent(false);
    if (!reply.trim()) {
      setProblem(EMPTY_REPLY_TEXT);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await callApi("POST", "/api/send-reply", {
        originalEmailId: email.id,
        replyBody: reply,
        fromAddress: folder === "inbox" ? email.to : email.from,
        toAddress: folder === "inbox" ? email.from : email.to,
        originalMessageId: email.messageId,
        originalSubject: email.subject,
      });
      setReply("");
      setReplying(false);
      setSent(true);
      onReplied();
    } catch (error) {
      console.error(error);
      setProblem(`Failed to send reply: ${errorText(error)}`);
    } finally {
      setBusy(false);
    }
  };

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
      <iframe
        title={`Message: ${email.subject}`}
        sandbox={EMAIL_FRAME_SANDBOX}
        referrerpolicy="no-referrer"
        srcDoc={emailFrameDocument(email.body)}
      />
      {replying && (
        <div class="em-reply">
          <textarea
            aria-label="Reply"
            placeholder="Type your reply here..."
            rows={6}
            value={reply}
            onInput={(e) => {
              setReply(e.currentTarget.value);
              setProblem(null);
            }}
          />
        </div>
      )}
      {problem && <p class="em-error" role="alert">{problem}</p>}
      {sent && <p class="em-sent" role="status">Reply sent</p>}
      <div class="em-actions">
        <button type="button" class="btn-secondary" onClick={onClose}>Close</button>
        {replying
          ? (
            <button type="button" class="btn" disabled={busy} onClick={send}>
              {busy ? "Sending..." : "Send Reply"}
            </button>
          )
          : (
            <button
              type="button"
              class="btn"
              onClick={() => {
                setReplying(true);
                setSent(false);
              }}
            >
              Reply
            </button>
          )}
      </div>
    </article>
  );
}

export default function EmailsView(_props: EmailsViewProps) {
  const [folder, setFolder] = useState<EmailFolder>("inbox");
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<Sort>({ key: "date", dir: "desc" });
  const [page, setPage] = useState(1);
  const [data, setData] = useState<EmailsPage | null>(null);
  const [failed, setFailed] = useState(false);
  const [open, setOpen] = useState<EmailDto | null>(null);
  const [deleting, setDeleting] = useState<EmailDto | null>(null);
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const path = FOLDERS.find((f) => f.folder === folder)!.path;
    const query = new URLSearchParams({
      page: String(page),
      search: search.trim(),
      sort: sort.key,
      dir: sort.dir,
    });
    let current = true;
    const timer = setTimeout(() => {
      callApi<EmailsPage>("GET", `${path}?${query}`)
        .then((page) => {
          if (!current) return;
          setFailed(false);
          setData(page);
        })
        .catch((error) => {
          console.error(error);
          if (current) setFailed(true);
        });
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [folder, search, sort, page, version]);

  const showFolder = (next: EmailFolder) => {
    setFolder(next);
    setPage(1);
    setOpen(null);
    setData(null);
  };

  const sortBy = (key: EmailSortKey) => {
    setSort((s) =>
      s.key === key
        ? { key, dir: s.dir === "asc" ? "desc" : "asc" }
        : { key, dir: key === "date" ? "desc" : "asc" }
    );
    setPage(1);
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await callApi("POST", "/api/delete-email", { id: deleting.id });
      setVersion((v) => v + 1);
    } catch (error) {
      console.error(error);
      alert(failureText("delete email", error));
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  };

  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <section class="em-view">
      <h2>Emails</h2>
      <div class="ag-tabs" role="tablist">
        {FOLDERS.map((f) => (
          <button
            key={f.folder}
            type="button"
            role="tab"
            aria-selected={folder === f.folder}
            onClick={() => showFolder(f.folder)}
          >
            {f.label}
          </button>
        ))}
      </div>
      {failed && <p class="em-banner" role="alert">{LOAD_FAILED}</p>}
      {open
        ? (
          <EmailDetail
            key={open.id}
            email={open}
            folder={folder}
            onClose={() => setOpen(null)}
            onReplied={() => setVersion((v) => v + 1)}
          />
        )
        : (
          <>
            <input
              type="search"
              class="em-search"
              placeholder="Search by to, from, or subject..."
              aria-label="Search emails"
              value={search}
              onInput={(e) => {
                setSearch(e.currentTarget.value);
                setPage(1);
              }}
            />
            {data === null ? (!failed && <p class="muted">Loading...</p>) : (
              <>
                <div class="ag-scroll" tabIndex={0} role="region" aria-label="Emails">
                  <table class="ag-table em-table">
                    <thead>
                      <tr>
                        {COLUMNS.map((c) => (
                          <th
                            key={c.key}
                            aria-sort={sort.key === c.key
                              ? (sort.dir === "asc" ? "ascending" : "descending")
                              : undefined}
                          >
                            <button type="button" class="em-sort" onClick={() => sortBy(c.key)}>
                              {c.label}
                              <span class="em-arrow" aria-hidden="true">
                                {sort.key === c.key ? (sort.dir === "asc" ? "↑" : "↓") : ""}
                              </span>
                            </button>
                          </th>
                        ))}
                        <th>
                          <span class="em-sr">Delete</span>
                        </th>
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
                          <td data-label="To">{email.to}</td>
                          <td data-label="From">{email.from}</td>
                          <td class="em-subject">{email.subject}</td>
                          <td class="em-date">{formatDate(email.date)}</td>
                          <td class="em-actions-cell">
                            <button
                              type="button"
                              class="btn-danger em-small"
                              aria-label={`Delete email ${email.subject}`}
                              onClick={(e) => {
                                e.stopPropagation();
                                setDeleting(email);
                              }}
                              onKeyDown={(e) => e.stopPropagation()}
                            >
                              Delete
                            </button>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                {data.emails.length === 0 && <p class="muted">No emails found</p>}
                <Pagination page={page} pageCount={pageCount} onPage={setPage} />
              </>
            )}
          </>
        )}
      {deleting && (
        <ConfirmDialog
          message={`Delete email '${deleting.subject}'?`}
          confirmLabel="Delete"
          busy={busy}
          onConfirm={remove}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
