import type { MailMessage } from './mail';

/**
 * What an e-mail says, once, as parts: the plain-text part and the HTML part are both made from
 * it, so they never say different things. A string is one line of a paragraph ('' ends it), as
 * plain text has always been written; the other parts have a shape of their own in HTML. A line is
 * words only, never a link, whatever address it holds: lines carry what shoppers typed (a name, an
 * address, a gift message), and a link from the shop's address is the shop's word. The shop's own
 * addresses go in a button or a link part.
 */
export type MailPart =
  | string
  /** Lines set apart (the boxes of a claim); indented in plain text. */
  | { kind: 'list'; items: string[] }
  /** Label and amount rows (order lines, totals, bank details); `text` is the row's plain-text line (null: none). */
  | { kind: 'table'; rows: Array<{ label: string; value: string; text?: string | null; strong?: boolean; muted?: boolean }> }
  /** The one thing to do, as a button; "label: address" in plain text. */
  | { kind: 'button'; label: string; href: string }
  /** A secondary link; "label: address" in plain text. */
  | { kind: 'link'; label: string; href: string }
  /** What the shopper must not miss (the delivery day), on a tinted band. */
  | { kind: 'callout'; text: string };

export interface MailContent {
  to: string;
  subject: string;
  /** The line mail apps show after the subject. */
  preview?: string;
  greeting: string;
  parts: MailPart[];
  siteName: string;
  headers?: Record<string, string>;
}

const colours = { page: '#fffdf7', card: '#ffffff', ink: '#1c1917', muted: '#57534e', mango: '#f59e0b', mangoDeep: '#b45309', tint: '#fffbeb', rule: '#f5e6c8' };

/**
 * Dark mode: mail apps that follow the reader's scheme read these; the light colours are inline
 * for the ones that do not (and the button keeps its mango colour, readable on both).
 */
const darkStyles = `
:root { color-scheme: light dark; supported-color-schemes: light dark; }
.mail-page { background-color: ${colours.page}; }
@media (prefers-color-scheme: dark) {
  .mail-page { background-color: #1c1917 !important; }
  .mail-card { background-color: #292524 !important; }
  .mail-ink { color: #f5f5f4 !important; }
  .mail-muted { color: #d6d3d1 !important; }
  .mail-link { color: #fbbf24 !important; }
  .mail-callout { background-color: #3a2a10 !important; color: #fde68a !important; }
  .mail-rule { border-color: #44403c !important; }
}
@media only screen and (max-width: 480px) {
  .mail-card { padding: 20px 16px !important; }
}
`;

/**
 * Text and attribute values, escaped as HTML needs them. Quotes too, as React did: the mails'
 * markup was checked byte for byte against React's (decision 0043). The link pages
 * (`link-page.ts`) escape without the apostrophe, and their tests read it as typed.
 */
const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
function escapeHtml(value: string): string {
  return value.replace(/["'&<>]/g, (character) => escapes[character]!);
}

/*
 * The markup is written out rather than rendered from components: an order's confirmation is
 * made inside its placement's transaction, and a component render cost more than the rest of the
 * placement's own work. The tables are the layout mail apps understand (no flexbox or grid in
 * Outlook); the margins are spelled out per side for the apps that drop the shorthand.
 */
const font = escapeHtml("'Inter', 'Segoe UI', Helvetica, Arial, sans-serif");
const serif = escapeHtml("Georgia, 'Times New Roman', serif");
/** One paragraph's style: `extra` goes after the shared text settings, `bottom` is its margin below. */
const textStyle = (extra = '', { size = '16px', colour = colours.ink, bottom = '16px' } = {}) =>
  `font-size:${size};line-height:24px;font-family:${font};color:${colour};margin:0 0 ${bottom};${extra}margin-top:0;margin-right:0;margin-bottom:${bottom};margin-left:0`;
const paragraphStyle = textStyle();
const greetingStyle = textStyle('font-weight:700;');
const itemStyle = textStyle(`padding-left:12px;border-left:3px solid ${colours.mango};`, { bottom: '4px' });
const calloutStyle = textStyle(`background-color:${colours.tint};border-radius:12px;padding:12px 16px;font-weight:700;white-space:pre-line;`);
const footerStyle = textStyle('', { size: '14px', colour: colours.muted });
const linkStyle = `color:${colours.mangoDeep};text-decoration-line:none;text-decoration:underline;word-break:break-all`;
const buttonStyle = `line-height:100%;text-decoration:none;display:inline-block;max-width:100%;mso-padding-alt:0px;background-color:${colours.mango};color:${colours.ink};font-family:${font};font-size:16px;font-weight:700;border-radius:999px;padding:12px 24px;padding-top:12px;padding-right:24px;padding-bottom:12px;padding-left:24px`;
/** Outlook ignores a link's padding: hair spaces at either side, raised text, make the button's shape there. */
const buttonBefore = '<span><!--[if mso]><i style="mso-font-width:400%;mso-text-raise:18" hidden>&#8202;&#8202;&#8202;</i><![endif]--></span>';
const buttonAfter = '<span><!--[if mso]><i style="mso-font-width:400%" hidden>&#8202;&#8202;&#8202;&#8203;</i><![endif]--></span>';
const buttonTextStyle = 'max-width:100%;display:inline-block;line-height:120%;mso-padding-alt:0px;mso-text-raise:9px';
const cellStyle = (extra: string, row: { strong?: boolean; muted?: boolean }) =>
  `font-family:${font};font-size:16px;line-height:24px;color:${row.muted ? colours.muted : colours.ink};margin:0;${extra};font-weight:${row.strong ? 700 : 400}`;

/** How every layout table opens: full width, no spacing, and not a data table to a screen reader. */
const layoutTable = '<table align="center" width="100%" border="0" cellPadding="0" cellSpacing="0" role="presentation"';

/** A full-width table of one cell holding `inner`: a block every mail app lays out alike. */
function section(inner: string, style: string, className?: string): string {
  const classAttribute = className ? ` class="${className}"` : '';
  return `${layoutTable}${classAttribute} style="${style}"><tbody><tr><td>${inner}</td></tr></tbody></table>`;
}

/**
 * Only web and mail addresses become links: a `javascript:` or `data:` address (should one ever
 * be passed in) is left out, and its words stay as plain text.
 */
function linkable(href: string): boolean {
  return /^(https?:\/\/|mailto:)/i.test(href);
}

function link(href: string, label: string): string {
  if (!linkable(href)) return escapeHtml(label);
  return `<a href="${escapeHtml(href)}" class="mail-link" style="${linkStyle}" target="_blank">${escapeHtml(label)}</a>`;
}

function button(href: string, label: string): string {
  const text = `<span style="${buttonTextStyle}">${escapeHtml(label)}</span>`;
  if (!linkable(href)) return text;
  return `<a href="${escapeHtml(href)}" style="${buttonStyle}" target="_blank">${buttonBefore}${text}${buttonAfter}</a>`;
}

function paragraph(lines: string[]): string {
  const spans = lines.map((line, index) => `<span>${index > 0 ? '<br/>' : ''}${escapeHtml(line.trim())}</span>`);
  return `<p class="mail-ink" style="${paragraphStyle}">${spans.join('')}</p>`;
}

function tableRow(row: { label: string; value: string; strong?: boolean; muted?: boolean }): string {
  const className = row.muted ? 'mail-muted' : 'mail-ink';
  const label = `<td class="${className}" style="${cellStyle('padding:6px 8px 6px 0', row)}">${escapeHtml(row.label)}</td>`;
  const value = `<td align="right" class="${className}" style="${cellStyle('padding:6px 0;white-space:nowrap;text-align:right', row)}">${escapeHtml(row.value)}</td>`;
  return `${layoutTable} class="mail-rule" style="border-bottom:1px solid ${colours.rule}"><tbody style="width:100%"><tr style="width:100%">${label}${value}</tr></tbody></table>`;
}

function partHtml(part: Exclude<MailPart, string>): string {
  switch (part.kind) {
    case 'list':
      return section(part.items.map((item) => `<p class="mail-ink" style="${itemStyle}">${escapeHtml(item.trim())}</p>`).join(''), 'margin:0 0 16px');
    case 'table':
      return section(part.rows.map(tableRow).join(''), 'margin:0 0 16px');
    case 'button':
      return section(button(part.href, part.label), 'margin:8px 0 24px');
    case 'link':
      return `<p class="mail-ink" style="${paragraphStyle}">${link(part.href, part.label)}</p>`;
    case 'callout':
      return `<p class="mail-callout" style="${calloutStyle}">${escapeHtml(part.text)}</p>`;
  }
}

/** Strings grouped into paragraphs ('' or a shaped part ends one); shaped parts as they are. */
function group(parts: MailPart[]): Array<{ lines: string[] } | Exclude<MailPart, string>> {
  const out: Array<{ lines: string[] } | Exclude<MailPart, string>> = [];
  let lines: string[] = [];
  const flush = () => {
    if (lines.length) out.push({ lines });
    lines = [];
  };
  for (const part of parts) {
    if (typeof part === 'string') {
      if (part.trim() === '') flush();
      else lines.push(part);
    } else {
      flush();
      out.push(part);
    }
  }
  flush();
  return out;
}

/** Mail apps show the preview after the subject; filler after it keeps them from showing the body's first words too. */
const previewLength = 150;
const previewFiller = '\u00a0\u200c\u200b\u200d\u200e\u200f\ufeff';
function previewHtml(preview: string): string {
  const shown = preview.substring(0, previewLength);
  const filler = shown.length < previewLength ? `<div>${previewFiller.repeat(previewLength - shown.length)}</div>` : '';
  return `<div style="display:none;overflow:hidden;line-height:1px;opacity:0;max-height:0;max-width:0" data-skip-in-text="true">${escapeHtml(shown)}${filler}</div>`;
}

function documentHtml(content: MailContent): string {
  const body = group(content.parts)
    .map((item) => ('lines' in item ? paragraph(item.lines) : partHtml(item)))
    .join('');
  const card = section(
    `<p class="mail-ink" style="${greetingStyle}">${escapeHtml(content.greeting)}</p>${body}` +
      `<hr class="mail-rule" style="width:100%;border:none;border-top:1px solid #eaeaea;border-color:${colours.rule};margin:8px 0 16px"/>` +
      `<p class="mail-muted" style="${footerStyle}">${escapeHtml(content.siteName)}: premium Indian mangoes, delivered fresh across New Zealand.</p>`,
    `background-color:${colours.card};border-radius:16px;padding:28px 28px 12px`,
    'mail-card',
  );
  const heading = `<h1 class="mail-ink" style="font-family:${serif};font-size:26px;line-height:32px;color:${colours.ink};margin:0 0 16px 4px"><span style="color:${colours.mango}">●</span> ${escapeHtml(content.siteName)}</h1>`;
  const container = `${layoutTable} style="max-width:560px;width:100%"><tbody><tr style="width:100%"><td>${heading}${card}</td></tr></tbody></table>`;
  return (
    '<!DOCTYPE html><html dir="ltr" lang="en-NZ"><head>' +
    '<meta content="text/html; charset=UTF-8" http-equiv="Content-Type"/><meta name="x-apple-disable-message-reformatting"/>' +
    '<meta name="color-scheme" content="light dark"/><meta name="supported-color-schemes" content="light dark"/>' +
    `<title>${escapeHtml(content.subject)}</title><style>${darkStyles}</style></head>` +
    // The page colour is the class's, not inline: the dark rule could not override an inline one.
    `<body class="mail-page" style="margin:0;padding:0">${content.preview ? previewHtml(content.preview) : ''}` +
    `<table border="0" width="100%" cellPadding="0" cellSpacing="0" role="presentation" align="center"><tbody><tr><td style="margin:0;padding:24px 8px">${container}</td></tr></tbody></table>` +
    '</body></html>'
  );
}

/** The plain-text lines of one part, as plain-text mail has always read. */
function textOf(part: MailPart): string[] {
  if (typeof part === 'string') return [part];
  switch (part.kind) {
    case 'list':
      return part.items.map((item) => `  ${item.trim()}`);
    case 'table':
      return part.rows.flatMap((row) => (row.text === null ? [] : [row.text ?? `${row.label}: ${row.value}`]));
    case 'button':
    case 'link':
      return [`${part.label}: ${part.href}`];
    case 'callout':
      return [part.text];
  }
}

/** The message with both parts: plain text (greeting, the parts, the shop's name) and HTML. */
export function composeMail(content: MailContent): MailMessage {
  const textBody = [content.greeting, '', ...content.parts.flatMap(textOf), '', content.siteName].join('\n');
  return { to: content.to, subject: content.subject, text: textBody, html: documentHtml(content), ...(content.headers ? { headers: content.headers } : {}) };
}
