// The document an email body is shown in: the iframe's srcdoc. The body was sanitized on the
// server; this is the second wall. The frame is sandboxed without allow-scripts, and the policy
// below lets the document load nothing but inline styles and images carried inside the message
// (data: URIs, cid: parts), so a script, a remote image or a stylesheet that slipped through
// still neither runs nor reaches the network.

/** The Content-Security-Policy of every email frame. */
export const EMAIL_FRAME_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data: cid:";

/**
 * The iframe sandbox: no scripts, forms, same-origin access or top navigation. Links (opened by
 * a click, in a new tab, without a referrer) are the only way out.
 */
export const EMAIL_FRAME_SANDBOX = "allow-popups allow-popups-to-escape-sandbox";

/** A whole document around a sanitized email body, for the frame's srcdoc. */
export function emailFrameDocument(sanitizedBody: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${EMAIL_FRAME_CSP}">` +
    `<meta name="referrer" content="no-referrer">` +
    `<style>body{margin:0;padding:12px;font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;` +
    `background:#fff;overflow-wrap:anywhere}img{max-width:100%;height:auto}</style>` +
    `</head><body>${sanitizedBody}</body></html>`;
}
