import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * A small Markdown renderer for the shop's content pages: headings, paragraphs, lists, bold,
 * italics and links. It builds React elements, never HTML strings, so page text cannot inject
 * markup or scripts; links are limited to shop paths, https and mailto.
 */
export function Markdown({ source }: { source: string }) {
  return <div className="space-y-4 leading-relaxed">{blocks(source)}</div>;
}

const headingTags: Record<number, 'h2' | 'h3' | 'h4'> = { 2: 'h2', 3: 'h3', 4: 'h4' };
const headingClasses: Record<number, string> = {
  2: 'pt-4 text-2xl font-semibold',
  3: 'pt-2 text-xl font-semibold',
  4: 'pt-2 text-lg font-semibold',
};

function blocks(source: string): ReactNode[] {
  const out: ReactNode[] = [];
  const lines = source.replace(/\r\n/g, '\n').split('\n');
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (!line.trim()) {
      index += 1;
    } else if (heading) {
      // The page title is the h1, so '#' and '##' both start a section (h2).
      const level = Math.max(heading[1]!.length, 2);
      const Tag = headingTags[level]!;
      out.push(
        <Tag key={index} className={headingClasses[level]}>
          {inline(heading[2]!)}
        </Tag>,
      );
      index += 1;
    } else if (/^\s*([-*]|\d+\.)\s+/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items: ReactNode[] = [];
      while (index < lines.length && /^\s*([-*]|\d+\.)\s+/.test(lines[index]!)) {
        items.push(<li key={index}>{inline(lines[index]!.replace(/^\s*([-*]|\d+\.)\s+/, ''))}</li>);
        index += 1;
      }
      out.push(
        ordered ? (
          <ol key={`l${index}`} className="list-decimal space-y-1 pl-6">{items}</ol>
        ) : (
          <ul key={`l${index}`} className="list-disc space-y-1 pl-6">{items}</ul>
        ),
      );
    } else {
      const paragraph: string[] = [];
      while (index < lines.length && lines[index]!.trim() && !/^(#{1,4}\s|\s*([-*]|\d+\.)\s+)/.test(lines[index]!)) {
        paragraph.push(lines[index]!.trim());
        index += 1;
      }
      out.push(<p key={`p${index}`}>{inline(paragraph.join(' '))}</p>);
    }
  }
  return out;
}

const inlinePattern = /\*\*(.+?)\*\*|\*(.+?)\*|_(.+?)_|\[([^\]]+)\]\(([^)\s]+)\)/g;

function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(inlinePattern)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    const key = match.index;
    if (match[1]) out.push(<strong key={key}>{inline(match[1])}</strong>);
    else if (match[2] || match[3]) out.push(<em key={key}>{inline((match[2] ?? match[3])!)}</em>);
    else out.push(<SafeLink key={key} href={match[5]!} label={match[4]!} />);
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function SafeLink({ href, label }: { href: string; label: string }) {
  const className = 'font-medium text-mango-700 underline underline-offset-2';
  if (/^\/(?![/\\])/.test(href)) return <Link to={href} className={className}>{label}</Link>;
  if (/^(https:|mailto:)/i.test(href)) return <a href={href} className={className} rel="noopener noreferrer">{label}</a>;
  return <>{label}</>;
}
