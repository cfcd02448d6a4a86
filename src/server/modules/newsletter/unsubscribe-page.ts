export type UnsubscribeOutcome = 'confirm' | 'unsubscribed' | 'invalid';

const copy: Record<UnsubscribeOutcome, [title: string, message: string]> = {
  confirm: ['Leave the newsletter?', 'Press Unsubscribe and we will stop sending you the Mango Shop newsletter.'],
  unsubscribed: ['Unsubscribed', 'You have been unsubscribed from the Mango Shop newsletter.'],
  invalid: ['Link not valid', 'This unsubscribe link is invalid or no longer works. If you still receive our newsletter, use the link in the latest e-mail.'],
};

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The small pages the unsubscribe link opens in a browser: plain HTML, no app, no script. The
 * confirm page's form sends the same body as a mail client's one-click post (RFC 8058).
 */
export function unsubscribePage(outcome: UnsubscribeOutcome, homeUrl: string, formAction = ''): string {
  const [title, message] = copy[outcome];
  const action =
    outcome === 'confirm'
      ? `<form method="post" action="${escapeAttribute(formAction)}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button>
</form>
<a class="quiet" href="${homeUrl}/">Back to Mango Shop</a>`
      : `<a href="${homeUrl}/">Back to Mango Shop</a>`;
  return `<!doctype html>
<html lang="en-NZ">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<title>${title} | Mango Shop</title>
<style>
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #fffbeb; color: #1c1917; font-family: system-ui, sans-serif; }
  main { max-width: 28rem; margin: 1.5rem; padding: 2rem; border-radius: 1.5rem; background: #fff; box-shadow: 0 10px 30px rgb(0 0 0 / 0.08); text-align: center; }
  h1 { margin: 0 0 0.75rem; font-size: 1.5rem; }
  p { margin: 0 0 1.5rem; line-height: 1.5; }
  form { margin: 0 0 1rem; }
  a, button { display: inline-block; padding: 0.6rem 1.25rem; border: 0; border-radius: 999px; background: #f59e0b; color: #1c1917; font: inherit; font-weight: 600; text-decoration: none; cursor: pointer; }
  a.quiet { padding: 0.25rem; background: none; font-weight: 400; text-decoration: underline; }
</style>
</head>
<body>
<main>
<h1>${title}</h1>
<p>${message}</p>
${action}
</main>
</body>
</html>
`;
}
