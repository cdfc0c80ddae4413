// Outgoing mail through nodemailer: SMTP (SMTP_URL) in production, and in demo mode its JSON
// transport, which builds the whole message (addresses, encoding, Message-ID) and sends nothing,
// so the demo runs offline. Either way the caller records what was sent (the `emails` table).

import { createTransport } from "nodemailer";
import type { Config } from "../../config.ts";

/** One message, ready to send. */
export interface OutgoingMail {
  /** The sender, when not the configured one (a reply from the address the customer wrote to). */
  from?: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** "<unique@domain>", fixed by the caller so a retried send is recognisable. */
  messageId: string;
  /** A reply: the Message-ID it answers. */
  inReplyTo?: string;
  /** A reply: the thread's Message-IDs, oldest first, the answered one last. */
  references?: string;
}

/** Sends mail from the configured sender. */
export interface Mailer {
  /** The From address of every message, e.g. "TopUp <receipts@example.com>". */
  from: string;
  /** "sink": nothing leaves the process; "smtp": handed to the SMTP server. */
  mode: "sink" | "smtp";
  /** Resolves once the transport accepted the message; rejects with the SMTP error otherwise. */
  send(mail: OutgoingMail): Promise<void>;
}

/** Creates a mailer for the configuration; no connection is made until the first send. */
export function createMailer(config: Config["mail"]): Mailer {
  const transport = config.mode === "smtp" && config.smtpUrl
    ? createTransport(config.smtpUrl)
    : createTransport({ jsonTransport: true });
  return {
    from: config.from,
    mode: config.mode,
    async send(mail) {
      await transport.sendMail({ from: config.from, ...mail });
    },
  };
}

const MAILER_KEY = Symbol.for("topup.mailer");

/** The process-wide mailer. */
export function getMailer(config: Config): Mailer {
  const g = globalThis as { [MAILER_KEY]?: Mailer };
  g[MAILER_KEY] ??= createMailer(config.mail);
  return g[MAILER_KEY];
}
