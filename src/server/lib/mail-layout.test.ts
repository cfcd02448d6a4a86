import { describe, expect, it } from 'vitest';
import { composeMail, type MailPart } from './mail-layout';

/** What a shopper can type reaches mail: names, addresses, a gift message, a product's name. */
const hostile = `Ana <script>alert(1)</script> "quoted" & 'single' <img src=x onerror=alert(2)>`;
const hostileHref = `https://example.nz/x?a=1&b="><script>alert(3)</script>`;

function mailWith(parts: MailPart[], extra: { preview?: string } = {}): { html: string; text: string } {
  const mail = composeMail({ to: 'ana@example.nz', subject: hostile, greeting: `Kia ora ${hostile},`, siteName: hostile, parts, ...extra });
  return { html: mail.html ?? '', text: mail.text };
}

describe('the mail layout', () => {
  it('escapes what a shopper typed everywhere it goes in the HTML: no element and no attribute comes from it', () => {
    const { html } = mailWith(
      [
        hostile,
        `A link inside a line: ${hostileHref} and after it`,
        '',
        { kind: 'list', items: [hostile] },
        { kind: 'table', rows: [{ label: hostile, value: hostile, strong: true }, { label: hostile, value: hostile, muted: true }] },
        { kind: 'button', label: hostile, href: hostileHref },
        { kind: 'link', label: hostile, href: hostileHref },
        { kind: 'callout', text: hostile },
      ],
      { preview: hostile },
    );
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/"><script|"quoted"|'single'/);
    // Each place the text goes, escaped: subject, preview, heading, greeting, paragraph, list, 4 cells, button, link, callout, footer.
    const escaped = 'Ana &lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot; &amp; &#x27;single&#x27; &lt;img src=x onerror=alert(2)&gt;';
    expect(html.split(escaped).length - 1).toBe(14);
    // The addresses stay whole, their quotes escaped inside the attribute.
    expect(html).toContain('href="https://example.nz/x?a=1&amp;b=&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;"');
  });

  it('says the same in plain text, unescaped, with the HTML-only lines left out', () => {
    const { text } = mailWith([
      'First line',
      '',
      { kind: 'table', rows: [{ label: 'Total', value: '$10.00', text: 'Total: $10.00 (includes GST of $1.30)' }, { label: 'GST', value: '$1.30', text: null }] },
      { kind: 'button', label: 'See your order', href: 'https://example.nz/account/orders/MS-1' },
    ]);
    expect(text).toBe(`Kia ora ${hostile},\n\nFirst line\n\nTotal: $10.00 (includes GST of $1.30)\nSee your order: https://example.nz/account/orders/MS-1\n\n${hostile}`);
  });

  it('leaves an address in a line as words: only the shop\'s own link parts are links', () => {
    const { html } = mailWith(['Track it at https://example.nz/track?n=1 today', { kind: 'link', label: 'Track it', href: 'https://example.nz/track?n=2' }]);
    expect(html).toContain('<span>Track it at https://example.nz/track?n=1 today</span>');
    expect([...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1])).toEqual(['https://example.nz/track?n=2']);
  });

  it('groups lines into paragraphs: an empty line or a shaped part ends one', () => {
    const { html } = mailWith(['one', 'two', '', 'three', { kind: 'callout', text: 'Delivery: Friday' }, 'four']);
    const paragraphs = [...html.matchAll(/<p class="mail-ink"[^>]*>(.*?)<\/p>/g)].map((match) => match[1]!.replace(/<[^>]+>/g, '|'));
    // The greeting, then the three paragraphs of lines.
    expect(paragraphs.slice(1)).toEqual(['|one|||two|', '|three|', '|four|']);
  });

  it('pads a short preview so mail apps do not show the first words of the body after it, and cuts a long one at 150 characters', () => {
    const filler = '\u00a0\u200c\u200b\u200d\u200e\u200f\ufeff';
    const short = mailWith([], { preview: 'Your boxes are on their way' }).html;
    expect(short).toContain(`data-skip-in-text="true">Your boxes are on their way<div>${filler.repeat(150 - 27)}</div></div>`);
    const long = mailWith([], { preview: 'x'.repeat(200) }).html;
    expect(long).toContain(`data-skip-in-text="true">${'x'.repeat(150)}</div>`);
    // Cut first, then escaped: an ampersand at the cut is never left half an entity.
    const atTheCut = mailWith([], { preview: `${'y'.repeat(149)}&more` }).html;
    expect(atTheCut).toContain(`data-skip-in-text="true">${'y'.repeat(149)}&amp;</div>`);
    const oneShort = mailWith([], { preview: `${'y'.repeat(148)}&` }).html;
    expect(oneShort).toContain(`data-skip-in-text="true">${'y'.repeat(148)}&amp;<div>${filler}</div></div>`);
    expect(mailWith([]).html).not.toContain('data-skip-in-text');
    expect(mailWith([], { preview: '' }).html).not.toContain('data-skip-in-text');
  });

  it('makes links only of web and mail addresses: any other address leaves the words alone', () => {
    const { html, text } = mailWith([
      { kind: 'button', label: 'Pay now', href: 'javascript:alert(1)' },
      { kind: 'link', label: 'See it', href: ' JaVaScRiPt:alert(2)' },
      { kind: 'link', label: 'Picture', href: 'data:text/html,<b>x</b>' },
      { kind: 'link', label: 'Write to us', href: 'mailto:kiaora@example.nz' },
      { kind: 'button', label: 'See your order', href: 'https://example.nz/account/orders/MS-1' },
    ]);
    expect(html).not.toMatch(/javascript:|data:text/i);
    expect(html).toContain('Pay now</span>');
    expect(html).toContain('>See it</p>');
    expect(html).toContain('href="mailto:kiaora@example.nz"');
    expect(html).toContain('href="https://example.nz/account/orders/MS-1"');
    // The plain text is not a link in any app: it still says what was given.
    expect(text).toContain('Pay now: javascript:alert(1)');
  });
});
