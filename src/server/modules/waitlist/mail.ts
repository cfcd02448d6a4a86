import type { MailMessage } from '../../lib/mail';

interface LinkMail {
  to: string;
  productName: string;
  /** The entry's manage link: confirms it, or lets the visitor leave the list. */
  link: string;
}

/** Double opt-in: nothing is on the list until the owner of the address opens this link. */
export function confirmMail({ to, productName, link }: LinkMail): MailMessage {
  return {
    to,
    subject: `Confirm: tell me when ${productName} is back`,
    text: [
      'Kia ora,',
      '',
      `Someone, hopefully you, asked Mango Shop to e-mail this address when ${productName} is back.`,
      'Open this link to confirm your place on the waitlist:',
      link,
      '',
      'The link works for 7 days. If you did not ask for this, ignore this e-mail: without your confirmation we will not write again.',
      '',
      'Mango Shop',
    ].join('\n'),
  };
}

/** A visitor signed up an address that is already on the list: its owner hears so, nobody else. */
export function alreadyOnListMail({ to, productName, link }: LinkMail): MailMessage {
  return {
    to,
    subject: `You are already on the waitlist for ${productName}`,
    text: [
      'Kia ora,',
      '',
      `This address is already on the Mango Shop waitlist for ${productName}. We will e-mail you once when it is back.`,
      '',
      'Changed your mind? Leave the waitlist with this link:',
      link,
      '',
      'Mango Shop',
    ].join('\n'),
  };
}

/** The one mail a waitlist entry gets: the product can be bought (or pre-ordered) again. */
export function backMail(back: { to: string; productName: string; isPreOrder: boolean; productUrl: string; unsubscribeUrl: string }): MailMessage {
  const news = back.isPreOrder ? `pre-orders for ${back.productName} are open again` : `${back.productName} is back in stock`;
  return {
    to: back.to,
    subject: back.isPreOrder ? `Pre-orders for ${back.productName} are open again` : `${back.productName} is back at Mango Shop`,
    text: [
      'Kia ora,',
      '',
      `Good news: ${news}. You asked us to tell you, so you are among the first to know.`,
      '',
      back.isPreOrder ? `Pre-order yours: ${back.productUrl}` : `Order yours: ${back.productUrl}`,
      '',
      'Fresh mangoes go quickly in season, so we cannot hold boxes for you. This is the only e-mail this waitlist sends: you are now off it.',
      '',
      'To leave every other Mango Shop waitlist you are on, use this link:',
      back.unsubscribeUrl,
      '',
      'Mango Shop',
    ].join('\n'),
    // RFC 8058: mail clients offer their own unsubscribe button, which POSTs to the link.
    headers: { 'List-Unsubscribe': `<${back.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
