import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface LinkPage {
  title: string;
  message: string;
  /** A button that posts to `action` (the link's own address): mail scanners only ever GET. */
  form?: { action: string; button: string };
  /** A link shown under the message (defaults to the shop's home page). */
  link?: { href: string; label: string };
}

/**
 * The small pages a link in an e-mail opens (unsubscribe, confirm a waitlist place): plain HTML, no
 * app, no script. A form posts `List-Unsubscribe=One-Click`, the body of a mail client's one-click
 * post (RFC 8058), so one handler serves both.
 */
export function linkPage(page: LinkPage, homeUrl: string): string {
  const link = page.link ?? { href: `${homeUrl}/`, label: 'Back to Mango Shop' };
  const action = page.form
    ? `<form method="post" action="${escapeHtml(page.form.action)}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">${escapeHtml(page.form.button)}</button>
</form>
<a class="quiet" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>`
    : `<a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>`;
  return `<!doctype html>
<html lang="en-NZ">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<title>${escapeHtml(page.title)} | Mango Shop</title>
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
<h1>${escapeHtml(page.title)}</h1>
<p>${escapeHtml(page.message)}</p>
${action}
</main>
</body>
</html>
`;
}

/** The one-click body (`List-Unsubscribe=One-Click`) is all a post to a mail link carries; anything larger is not one. */
const oneClickBodyLimit = 4096;

/**
 * Lets the mail links of this scope take form posts: RFC 8058 one-click posts come form encoded or
 * as multipart, and their one field says only "One-Click", so the body is read and dropped and the
 * token in the address decides. Register it in a scope of its own: the rest of the API stays JSON.
 */
export function acceptOneClickPosts(app: FastifyInstance): void {
  app.addContentTypeParser(['application/x-www-form-urlencoded', 'multipart/form-data'], { parseAs: 'buffer', bodyLimit: oneClickBodyLimit }, (_request, _body, done) =>
    done(null, undefined),
  );
}

/** Answers a mail link with its page (404 when the link is not valid): never cached, and the token never leaks onwards. */
export function sendLinkPage(reply: FastifyReply, html: string, found = true): FastifyReply {
  return reply.code(found ? 200 : 404).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').type('text/html; charset=utf-8').send(html);
}

/** The pages of an e-mail's opt-out link: asked (a GET), done (the post), and a link not valid. */
export interface OptOutPages {
  /** The link's path, without its query. */
  path: string;
  ask: { title: string; message: string };
  done: LinkPage;
  invalid: LinkPage;
}

const optOutToken = z.object({ token: z.string().min(20).max(200).optional().catch(undefined) });

/**
 * An e-mail's opt-out link (`path?token=...`): a GET shows a Turn off button (mail scanners open
 * every link), a post (the button, or a mail client's one-click post) turns it off.
 */
export function optOutRoutes(pages: OptOutPages, link: { isValid(token: string): Promise<boolean>; optOut(token: string): Promise<boolean> }, publicUrl: string): FastifyPluginAsyncZod {
  const send = (reply: FastifyReply, page: LinkPage, found = true) => sendLinkPage(reply, linkPage(page, publicUrl), found);
  return async (app) => {
    acceptOneClickPosts(app);

    app.get(pages.path, { schema: { querystring: optOutToken } }, async (request, reply) => {
      const { token } = request.query;
      if (!token || !(await link.isValid(token))) return send(reply, pages.invalid, false);
      return send(reply, { ...pages.ask, form: { action: `${pages.path}?token=${encodeURIComponent(token)}`, button: 'Turn off' } });
    });

    app.post(pages.path, { schema: { querystring: optOutToken } }, async (request, reply) => {
      const { token } = request.query;
      if (!token || !(await link.optOut(token))) return send(reply, pages.invalid, false);
      return send(reply, pages.done);
    });
  };
}
