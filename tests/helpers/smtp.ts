// A real SMTP server in the test process (smtp-server): what the app's nodemailer delivers to
// SMTP_URL arrives here, parsed with mailparser, so tests read the headers a mail client would.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { type ParsedMail, simpleParser } from "mailparser";

export interface TestSmtp {
  /** smtp://127.0.0.1:PORT, for the app's SMTP_URL. */
  url: string;
  /** Every message accepted so far, in order. */
  received: ParsedMail[];
  stop(): Promise<void>;
}

/** Starts a plain-text SMTP server; a recipient at `refuse.test` is refused with a 550. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith("@refuse.test")) {
        const error = new Error("Mailbox unavailable") as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        received.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", () => ok()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    stop: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
