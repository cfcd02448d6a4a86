import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Markdown } from './markdown';

const render = (source: string) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <Markdown source={source} />
    </MemoryRouter>,
  );

describe('Markdown', () => {
  it('renders headings, lists, emphasis and shop links', () => {
    const html = render('## Delivery\n\n- **Fast** and *fresh*\n- [Our story](/about)');
    expect(html).toContain('<h2 class="pt-4 text-2xl font-semibold">Delivery</h2>');
    expect(html).toContain('<li><strong>Fast</strong> and <em>fresh</em></li>');
    expect(html).toMatch(/<a [^>]*href="\/about"[^>]*>Our story<\/a>/);
  });

  it('shows a <script> in the page text as text, never as an element', () => {
    const html = render('<script>alert(1)</script>\n\nAfter the script.');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(html).toContain('<p>After the script.</p>');
  });

  it('shows raw HTML with event handlers as text', () => {
    const html = render('<img src=x onerror="alert(2)"> and <a href="javascript:alert(3)">here</a>\n\n## <iframe src="https://example.com"></iframe>');
    expect(html).not.toMatch(/<(img|iframe)\b/i);
    expect(html).not.toMatch(/<a\b/i);
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
    expect(html).toContain('&lt;iframe src=&quot;https://example.com&quot;&gt;&lt;/iframe&gt;');
  });

  it.each([
    ['javascript:', '[Win a box](javascript:alert(1))'],
    ['upper-case JavaScript:', '[Win a box](JavaScript:alert(1))'],
    ['data:', '[Win a box](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
    ['vbscript:', '[Win a box](vbscript:msgbox(1))'],
    ['protocol-relative', '[Win a box](//evil.example/prize)'],
    ['http', '[Win a box](http://evil.example/prize)'],
  ])('renders a %s link as its words only, not as a link', (_kind, source) => {
    const html = render(source);
    expect(html).not.toMatch(/<a\b/i);
    expect(html).not.toMatch(/href=/i);
    expect(html).toContain('Win a box');
  });

  it('keeps https and mailto links, opened without a referrer', () => {
    const html = render('[Growers](https://example.com/growers) or [write](mailto:kia.ora@mangoshop.co.nz)');
    expect(html).toContain('<a href="https://example.com/growers" class="font-medium text-mango-700 underline underline-offset-2" rel="noopener noreferrer">Growers</a>');
    expect(html).toContain('href="mailto:kia.ora@mangoshop.co.nz"');
  });
});
