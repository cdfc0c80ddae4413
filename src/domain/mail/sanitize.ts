// Email bodies come from anyone on the internet. Before the console shows one it goes through
// sanitize-html (maintained, widely used, built on htmlparser2, an allow-list of tags,
// attributes, URL schemes and CSS properties): what is not listed is dropped. Whatever it keeps
// is then shown in a sandboxed frame with a strict policy (src/shared/email-frame.ts).
import sanitizeHtml from "sanitize-html";

/** A CSS value without parentheses or escapes (no url(), expression(), \-tricks), or a colour. */
const PLAIN_CSS_VALUE = /^(?:[^()\\;:]*|(?:rgb|rgba|hsl|hsla)\([\d\s.,%]+\))$/i;

/** Links the sanitizer keeps (it checks the scheme again after this). */
const ABSOLUTE_LINK = /^(?:https?:\/\/|mailto:)/i;

/** An image carried by the message itself. */
const INLINE_IMAGE = /^(?:data:image\/|cid:)/i;

const STYLED_PROPERTIES = [
  "color",
  "background-color",
  "font",
  "font-family",
  "font-size",
  "font-style",
  "font-weight",
  "text-align",
  "text-decoration",
  "text-transform",
  "line-height",
  "letter-spacing",
  "white-space",
  "vertical-align",
  "margin",
  "margin-top",
  "margin-right",
  "margin-bottom",
  "margin-left",
  "padding",
  "padding-top",
  "padding-right",
  "padding-bottom",
  "padding-left",
  "border",
  "border-top",
  "border-right",
  "border-bottom",
  "border-left",
  "border-color",
  "border-collapse",
  "border-radius",
  "width",
  "max-width",
  "min-width",
  "height",
  "display",
  "list-style-type",
];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    "img",
    "font",
    "center",
    "big",
    "del",
    "ins",
  ],
  // Dropped with everything inside them, not just unwrapped.
  nonTextTags: [
    "script",
    "style",
    "textarea",
    "option",
    "noscript",
    "title",
    "head",
    "iframe",
    "object",
    "template",
    "xmp",
    "noembed",
    "noframes",
  ],
  allowedAttributes: {
    "*": ["style", "dir", "lang", "align", "title"],
    a: ["href", "name", "target", "rel"],
    img: ["src", "alt", "width", "height"],
    font: ["color", "face", "size"],
    table: ["width", "border", "cellpadding", "cellspacing", "bgcolor"],
    td: ["colspan", "rowspan", "valign", "width", "bgcolor"],
    th: ["colspan", "rowspan", "valign", "width", "bgcolor", "scope"],
    tr: ["valign", "bgcolor"],
    col: ["span", "width"],
    colgroup: ["span", "width"],
    ol: ["start", "type"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  // Images only from inside the message: a remote image is a read receipt and a tracker.
  allowedSchemesByTag: { img: ["data", "cid"] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  allowedStyles: {
    "*": Object.fromEntries(STYLED_PROPERTIES.map((p) => [p, [PLAIN_CSS_VALUE]])),
  },
  transformTags: {
    // A link opens in a new tab, without a referrer or a handle back to the console. A relative
    // link would resolve against the console's own address: it keeps its text, not its target.
    a: (tagName, attribs) => {
      const { href, name } = attribs;
      return {
        tagName,
        attribs: {
          ...(name ? { name } : {}),
          ...(href && ABSOLUTE_LINK.test(href.trim())
            ? { href, target: "_blank", rel: "noopener noreferrer" }
            : {}),
        },
      };
    },
  },
  // An image that is not inside the message (relative, remote, or no source at all) is dropped.
  exclusiveFilter: (frame) => frame.tag === "img" && !INLINE_IMAGE.test(frame.attribs.src ?? ""),
};

/** The parts of an email's HTML that are safe to show; everything else is removed. */
export function sanitizeEmailHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
