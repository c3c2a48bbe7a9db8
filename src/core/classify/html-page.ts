/**
 * Recognises a full HTML error page (a proxy's or CDN's page instead of a JSON body) and finds its
 * title, so previews say "HTML error page: 502 Bad Gateway" instead of dumping markup (R-EC-5 timeout).
 */
export interface HtmlPage {
  title?: string;
}

const PAGE_START = /^[^<]{0,40}<(?:!doctype\s+html|html[\s>])/i;
const PAGE_BODY = /<\/html>|<title[\s>]|<body[\s>]|<head[\s>]/i;
const TITLE = /<title[^>]{0,200}>([^<]{0,300})<\/title>/i;
const HEADING = /<h1[^>]{0,200}>([^<]{0,300})<\/h1>/i;

const ENTITIES: Readonly<Record<string, string>> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&#039;": "'",
  "&nbsp;": " ",
};

export function readHtmlPage(text: string): HtmlPage | undefined {
  if (!PAGE_START.test(text) || !PAGE_BODY.test(text)) return undefined;
  const found = TITLE.exec(text)?.[1] ?? HEADING.exec(text)?.[1];
  const title = found
    ?.replace(/&(?:amp|lt|gt|quot|nbsp|#0?39);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\s+/g, " ")
    .trim();
  return title ? { title } : {};
}
