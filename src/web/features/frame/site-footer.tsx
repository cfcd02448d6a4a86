import { Camera, Clock, Globe, Mail, MapPin, MessageCircle, Phone, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { PublicSettings } from '../../../contracts/settings';
import { openingHoursLine } from '../../lib/opening-hours';
import { useSettings } from './use-settings';
import { useRenderDay, useRenderTime } from '../../lib/render-time';

const quickLinks = [
  { to: '/', label: 'Home' },
  { to: '/shop', label: 'Shop' },
  { to: '/about', label: 'About Us' },
  { to: '/contact', label: 'Contact Us' },
  { to: '/mango-season-guide', label: 'Mango Season Guide' },
];

const serviceLinks = [
  { to: '/shipping-policy', label: 'Shipping Policy' },
  { to: '/refund-policy', label: 'Refund Policy' },
  { to: '/terms-conditions', label: 'Terms & Conditions' },
  { to: '/privacy-policy', label: 'Privacy Policy' },
];

/** Spec 2: built-in social links stand in for any the settings leave missing or empty. */
const fallbackSocial: Record<keyof PublicSettings['socialMedia'], string> = {
  facebook: 'https://www.facebook.com/mangoshopnz',
  instagram: 'https://www.instagram.com/mangoshopnz',
  whatsapp: 'https://wa.me/6495550142',
};

// lucide has no brand marks, so each network gets a generic icon and its name as the label.
const socialNetworks: Array<{ key: keyof typeof fallbackSocial; label: string; Icon: LucideIcon }> = [
  { key: 'facebook', label: 'Facebook', Icon: Globe },
  { key: 'instagram', label: 'Instagram', Icon: Camera },
  { key: 'whatsapp', label: 'WhatsApp', Icon: MessageCircle },
];


function FooterColumn({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="space-y-3">
      <h2 className="font-serif text-lg font-semibold text-ink-900">{title}</h2>
      {children}
    </div>
  );
}

function ContactLine({ Icon, children }: { Icon: LucideIcon; children: ReactNode }) {
  return (
    <li className="flex gap-2">
      <Icon aria-hidden="true" size={20} strokeWidth={1.5} className="mt-px shrink-0 text-mango-700" />
      <span className="min-w-0 break-words">{children}</span>
    </li>
  );
}

function LinkList({ links }: { links: typeof quickLinks }) {
  return (
    <ul className="space-y-2">
      {links.map((link) => (
        <li key={link.to}>
          <Link to={link.to} className="hover:text-mango-700 hover:underline">{link.label}</Link>
        </li>
      ))}
    </ul>
  );
}

/** Spec 2's footer: links, contact details, opening hours and social links from the site settings. */
export function SiteFooter() {
  const { data: settings } = useSettings();
  // Spec 2: the logo URL carries a timestamp so a changed logo is never served from cache: the
  // time the page was drawn, which the browser hydrates with too (so does the year).
  const renderedAt = useRenderTime();
  const year = useRenderDay().slice(0, 4);
  const contact = settings?.contact;
  return (
    <footer className="border-t border-mango-50 bg-white text-sm text-ink-500">
      <div className="mx-auto grid max-w-[1200px] gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div className="space-y-3">
          <Link to="/" aria-label="Mango Shop home" className="inline-block">
            <img src={`/images/logo.svg?v=${renderedAt}`} alt="Mango Shop" width={160} height={38} loading="lazy" />
          </Link>
          <p>Premium Indian mangoes, hand-picked at their peak and delivered fresh across New Zealand.</p>
          <ul className="flex gap-3" aria-label="Social media">
            {socialNetworks.map(({ key, label, Icon }) => (
              <li key={key}>
                <a
                  href={settings?.socialMedia?.[key]?.trim() || fallbackSocial[key]}
                  aria-label={label}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="flex size-10 items-center justify-center rounded-full bg-mango-50 text-ink-900 hover:bg-mango-500"
                >
                  <Icon aria-hidden="true" size={20} strokeWidth={1.5} />
                </a>
              </li>
            ))}
          </ul>
        </div>
        <FooterColumn title="Quick Links">
          <LinkList links={quickLinks} />
        </FooterColumn>
        <FooterColumn title="Customer Service">
          <LinkList links={serviceLinks} />
        </FooterColumn>
        <FooterColumn title="Get in Touch">
          <ul className="space-y-2">
            {contact?.address && <ContactLine Icon={MapPin}>{contact.address}</ContactLine>}
            {contact?.phone && (
              <ContactLine Icon={Phone}>
                <a href={`tel:${contact.phone.replace(/[^\d+]/g, '')}`} className="hover:text-mango-700 hover:underline">{contact.phone}</a>
              </ContactLine>
            )}
            {contact?.email && (
              <ContactLine Icon={Mail}>
                <a href={`mailto:${contact.email}`} className="hover:text-mango-700 hover:underline">{contact.email}</a>
              </ContactLine>
            )}
            <ContactLine Icon={Clock}>{openingHoursLine(settings)}</ContactLine>
          </ul>
        </FooterColumn>
      </div>
      <p className="border-t border-mango-50 px-4 py-4 text-center">© {year} Mango Shop. Prices in NZD{settings?.gstNumber ? ' incl. GST' : ''}.</p>
    </footer>
  );
}
