import type { MailMessage } from '../../lib/mail';
import { formatOpening } from '../../../contracts/availability';
import { composeMail } from '../../lib/mail-layout';

interface LinkMail {
  to: string;
  productName: string;
  /** The product's pre-orders open then (ISO): the list waits for that, not for boxes. */
  opensAt?: string | null;
  /** The entry's manage link: confirms it, or lets the visitor leave the list. */
  link: string;
}

/** What the list waits for, as the mail says it. */
function waitsFor(productName: string, opensAt: string | null | undefined): string {
  return opensAt ? `when pre-orders for ${productName} open` : `when ${productName} is back`;
}

/** Double opt-in: nothing is on the list until the owner of the address opens this link. */
export function confirmMail({ to, productName, link, opensAt }: LinkMail): MailMessage {
  const when = waitsFor(productName, opensAt);
  return composeMail({
    to,
    subject: `Confirm: tell me ${when}`,
    preview: `One click and we will tell you ${when}.`,
    greeting: 'Kia ora,',
    parts: [
      `Someone, hopefully you, asked Mango Shop to e-mail this address ${when}${opensAt ? ` (${formatOpening(opensAt)}, New Zealand time)` : ''}.`,
      { kind: 'button', label: 'Open this link to confirm your place on the waitlist', href: link },
      'The link works for 7 days. If you did not ask for this, ignore this e-mail: without your confirmation we will not write again.',
    ],
    siteName: 'Mango Shop',
  });
}

/** A visitor signed up an address that is already on the list: its owner hears so, nobody else. */
/** `link`: a new manage link, when the entry had none; otherwise the one last mailed still works. */
export function alreadyOnListMail({ to, productName, opensAt, link }: Omit<LinkMail, 'link'> & { link: string | null }): MailMessage {
  return composeMail({
    to,
    subject: `You are already on the waitlist for ${productName}`,
    greeting: 'Kia ora,',
    parts: [
      `This address is already on the Mango Shop waitlist for ${productName}. We will e-mail you ${opensAt ? 'when pre-orders open' : 'once when it is back'}.`,
      '',
      // The link last mailed still works: a new one here would end it.
      link
        ? { kind: 'link', label: 'Changed your mind? Leave the waitlist with this link', href: link }
        : 'Changed your mind? The link in our latest e-mail about this waitlist still takes you off it.',
    ],
    siteName: 'Mango Shop',
  });
}

/** The one mail a waitlist entry gets: the product can be bought (or pre-ordered) again. */
export function backMail(back: { to: string; productName: string; isPreOrder: boolean; productUrl: string; unsubscribeUrl: string }): MailMessage {
  const news = back.isPreOrder ? `pre-orders for ${back.productName} are open` : `${back.productName} is back in stock`;
  return composeMail({
    to: back.to,
    subject: back.isPreOrder ? `Pre-orders for ${back.productName} are open` : `${back.productName} is back at Mango Shop`,
    preview: `Good news: ${news}.`,
    greeting: 'Kia ora,',
    parts: [
      `Good news: ${news}. You asked us to tell you, so you are among the first to know.`,
      { kind: 'button', label: back.isPreOrder ? 'Pre-order yours' : 'Order yours', href: back.productUrl },
      'Fresh mangoes go quickly in season, so we cannot hold boxes for you. This is the only e-mail this waitlist sends: you are now off it.',
      '',
      { kind: 'link', label: 'To leave every other Mango Shop waitlist you are on, use this link', href: back.unsubscribeUrl },
    ],
    siteName: 'Mango Shop',
    // RFC 8058: mail clients offer their own unsubscribe button, which POSTs to the link.
    headers: { 'List-Unsubscribe': `<${back.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  });
}

/** Staff set or moved when pre-orders open: the subscriber hears the new time, once per change. */
export function openingMovedMail(news: { to: string; productName: string; opensAt: string; productUrl: string; leaveUrl: string }): MailMessage {
  const when = formatOpening(news.opensAt);
  return composeMail({
    to: news.to,
    subject: `Pre-orders for ${news.productName} open ${when}`,
    preview: `Pre-orders for ${news.productName} open ${when} (New Zealand time).`,
    greeting: 'Kia ora,',
    parts: [
      `You are on the waitlist for ${news.productName}. Pre-orders now open ${when}, New Zealand time.`,
      'We will e-mail you again the moment they open. Boxes are limited and go in the order shoppers place them.',
      { kind: 'button', label: `See ${news.productName}`, href: news.productUrl },
      '',
      { kind: 'link', label: 'Changed your mind? Leave this waitlist with this link', href: news.leaveUrl },
    ],
    siteName: 'Mango Shop',
  });
}
