import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Column } from '@react-email/column';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Row } from '@react-email/row';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import type { CSSProperties, ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { MailMessage } from './mail';

/**
 * What an e-mail says, once, as parts: the plain-text part and the HTML part are both made from
 * it, so they never say different things. A string is one line of a paragraph ('' ends it), as
 * plain text has always been written; the other parts have a shape of their own in HTML.
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
const font = "'Inter', 'Segoe UI', Helvetica, Arial, sans-serif";
const serif = "Georgia, 'Times New Roman', serif";

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

const text: CSSProperties = { fontFamily: font, fontSize: '16px', lineHeight: '24px', color: colours.ink, margin: '0 0 16px' };

/** A bare address in a line becomes a link in HTML. */
function withLinks(line: string): ReactNode {
  const pieces = line.split(/(https?:\/\/[^\s]+)/g);
  return pieces.map((piece, index) =>
    /^https?:\/\//.test(piece) ? (
      <Link key={index} href={piece} className="mail-link" style={{ color: colours.mangoDeep, textDecoration: 'underline', wordBreak: 'break-all' }}>
        {piece}
      </Link>
    ) : (
      piece
    ),
  );
}

function Paragraph({ lines }: { lines: string[] }) {
  return (
    <Text className="mail-ink" style={text}>
      {lines.map((line, index) => (
        <span key={index}>
          {index > 0 && <br />}
          {withLinks(line.trim())}
        </span>
      ))}
    </Text>
  );
}

function Part({ part }: { part: Exclude<MailPart, string> }) {
  switch (part.kind) {
    case 'list':
      return (
        <Section style={{ margin: '0 0 16px' }}>
          {part.items.map((item, index) => (
            <Text key={index} className="mail-ink" style={{ ...text, margin: '0 0 4px', paddingLeft: '12px', borderLeft: `3px solid ${colours.mango}` }}>
              {item.trim()}
            </Text>
          ))}
        </Section>
      );
    case 'table':
      return (
        <Section style={{ margin: '0 0 16px' }}>
          {part.rows.map((row, index) => (
            <Row key={index} className="mail-rule" style={{ borderBottom: `1px solid ${colours.rule}` }}>
              <Column className={row.muted ? 'mail-muted' : 'mail-ink'} style={{ ...text, margin: 0, padding: '6px 8px 6px 0', fontWeight: row.strong ? 700 : 400, color: row.muted ? colours.muted : colours.ink }}>
                {row.label}
              </Column>
              <Column
                align="right"
                className={row.muted ? 'mail-muted' : 'mail-ink'}
                style={{ ...text, margin: 0, padding: '6px 0', whiteSpace: 'nowrap', textAlign: 'right', fontWeight: row.strong ? 700 : 400, color: row.muted ? colours.muted : colours.ink }}>
                {row.value}
              </Column>
            </Row>
          ))}
        </Section>
      );
    case 'button':
      return (
        <Section style={{ margin: '8px 0 24px' }}>
          <Button
            href={part.href}
            style={{ backgroundColor: colours.mango, color: colours.ink, fontFamily: font, fontSize: '16px', fontWeight: 700, borderRadius: '999px', padding: '12px 24px', textDecoration: 'none', display: 'inline-block' }}>
            {part.label}
          </Button>
        </Section>
      );
    case 'link':
      return (
        <Text className="mail-ink" style={text}>
          <Link href={part.href} className="mail-link" style={{ color: colours.mangoDeep, textDecoration: 'underline', wordBreak: 'break-all' }}>
            {part.label}
          </Link>
        </Text>
      );
    case 'callout':
      return (
        <Text className="mail-callout" style={{ ...text, backgroundColor: colours.tint, borderRadius: '12px', padding: '12px 16px', fontWeight: 700, whiteSpace: 'pre-line' }}>
          {part.text}
        </Text>
      );
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

function MailDocument({ content }: { content: MailContent }) {
  return (
    <Html lang="en-NZ">
      <Head>
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <title>{content.subject}</title>
        <style>{darkStyles}</style>
      </Head>
      {content.preview && <Preview>{content.preview}</Preview>}
      {/* No inline background: React Email copies the body's style to an inner cell, which the dark rule could not reach. */}
      <Body className="mail-page" style={{ margin: 0, padding: '24px 8px' }}>
        <Container style={{ maxWidth: '560px', width: '100%' }}>
          <Heading as="h1" className="mail-ink" style={{ fontFamily: serif, fontSize: '26px', lineHeight: '32px', color: colours.ink, margin: '0 0 16px 4px' }}>
            <span style={{ color: colours.mango }}>●</span> {content.siteName}
          </Heading>
          <Section className="mail-card" style={{ backgroundColor: colours.card, borderRadius: '16px', padding: '28px 28px 12px' }}>
            <Text className="mail-ink" style={{ ...text, fontWeight: 700 }}>
              {content.greeting}
            </Text>
            {group(content.parts).map((item, index) => ('lines' in item ? <Paragraph key={index} lines={item.lines} /> : <Part key={index} part={item} />))}
            <Hr className="mail-rule" style={{ borderColor: colours.rule, margin: '8px 0 16px' }} />
            <Text className="mail-muted" style={{ ...text, fontSize: '14px', color: colours.muted }}>
              {content.siteName}: premium Indian mangoes, delivered fresh across New Zealand.
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
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
  const html = `<!DOCTYPE html>${renderToStaticMarkup(<MailDocument content={content} />)}`;
  return { to: content.to, subject: content.subject, text: textBody, html, ...(content.headers ? { headers: content.headers } : {}) };
}
