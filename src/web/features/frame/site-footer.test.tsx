import { QueryClientProvider } from '../../lib/query';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { makeQueryClient } from '../../lib/query-client';
import { SiteFooter } from './site-footer';

describe('the footer drawn on the server when the settings could not be loaded', () => {
  it('falls back to its own hours text and social links (spec 8)', () => {
    // The root loader leaves a failed query out of the page: the footer is drawn without settings.
    const html = renderToString(
      <QueryClientProvider client={makeQueryClient()}>
        <MemoryRouter>
          <SiteFooter />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(html).toContain('Check our store hours');
    expect(html).toContain('href="https://wa.me/6495550142"');
  });
});
