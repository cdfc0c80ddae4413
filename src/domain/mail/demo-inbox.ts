// A few customer messages for the demo's inbox, as raw MIME through the same parser and
// sanitizer as real inbound mail. Fixed Message-IDs: seeding again adds nothing, and a message an
// admin deleted does not come back.
import type { Db } from "../../db/client.ts";
import { receiveInboundEmail } from "./inbound.ts";

const HOUR = 3600_000;

function demoMessage(
  n: number,
  from: string,
  subject: string,
  hoursAgo: number,
  html: string,
): string {
  return [
    `From: ${from}`,
    "To: TopUp Support <support@topup.test>",
    `Subject: ${subject}`,
    `Date: ${new Date(Date.now() - hoursAgo * HOUR).toUTCString()}`,
    `Message-ID: <demo-inbox-${n}@topup.test>`,
    "MIME-Version: 1.0",
    'Content-Type: text/html; charset="utf-8"',
    "",
    html,
    "",
  ].join("\r\n");
}

const DEMO_INBOX = [
  demoMessage(
    1,
    "Aisyah Rahman <aisyah@example.com>",
    "Diamonds not received yet",
    2,
    "<p>Hi,</p><p>I paid for 257 diamonds an hour ago but they have not arrived in my account " +
      "(User ID 12345678, Server 2001). Could you check?</p><p>Thanks,<br>Aisyah</p>",
  ),
  demoMessage(
    2,
    "Ben Tan <ben.tan@example.com>",
    "Bulk top-up for our team",
    26,
    "<p>Hello TopUp team,</p><p>We run a small esports club and would like to top up " +
      "<strong>12 accounts</strong> every month. Do you offer reseller accounts?</p><p>Ben</p>",
  ),
  demoMessage(
    3,
    "Wei Ling <weiling@example.com>",
    "Wrong server ID on my order",
    50,
    '<p>I typed the wrong server ID on order <span style="font-family:monospace">' +
      "TU-1042</span>. The right one is 2104. Can it be changed before it is delivered?</p>" +
      "<p>Wei Ling</p>",
  ),
];

/** Puts the demo messages in the inbox; answers how many were new. */
export async function seedDemoInbox(db: Db): Promise<number> {
  let stored = 0;
  for (const raw of DEMO_INBOX) {
    if ((await receiveInboundEmail(db, raw)).stored) stored++;
  }
  return stored;
}
