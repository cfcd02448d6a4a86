/**
 * Starting GA4 and the Meta pixel: each gets its queue, then its script. analytics.ts loads this
 * file only when their ids are set in settings.
 */
import type { Call } from './analytics';

interface Fbq {
  (...args: Call): void;
  callMethod?: (...args: Call) => void;
  queue: Call[];
  push: Fbq;
  loaded: boolean;
  version: string;
  disablePushState?: boolean;
}

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: Call) => void;
    fbq?: Fbq;
    _fbq?: Fbq;
  }
}

function loadScript(src: string): void {
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  document.head.appendChild(script);
}

export function startGoogleAnalytics(id: string): void {
  const dataLayer = (window.dataLayer ??= []);
  // gtag.js reads `arguments` objects from the data layer; arrays are ignored.
  window.gtag = function gtag() {
    // eslint-disable-next-line prefer-rest-params
    dataLayer.push(arguments);
  };
  window.gtag('js', new Date());
  // The app is a single page: page views are sent on each route change, not by the config.
  window.gtag('config', id, { send_page_view: false });
  loadScript(`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`);
}

export function startMetaPixel(id: string): void {
  const fbq = function (...args: Call) {
    if (fbq.callMethod) fbq.callMethod(...args);
    else fbq.queue.push(args);
  } as Fbq;
  fbq.queue = [];
  fbq.push = fbq;
  fbq.loaded = true;
  fbq.version = '2.0';
  // The pixel would add a PageView of its own on every history change; ours already send one.
  fbq.disablePushState = true;
  window.fbq = fbq;
  window._fbq = fbq;
  fbq('init', id);
  loadScript('https://connect.facebook.net/en_US/fbevents.js');
}
