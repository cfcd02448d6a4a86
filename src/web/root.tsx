import { HydrationBoundary, QueryClientProvider } from './lib/query';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  redirect,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useNavigation,
} from 'react-router';
import { nzToday } from '../contracts/dates';
import type { PublicSettings } from '../contracts/settings';
import type { User } from '../contracts/user';
import { Spinner } from './components/ui/spinner';
import { Toaster } from './components/ui/toast';
import { AuthProvider } from './features/auth/auth-provider';
import { CartProvider } from './features/cart/cart-provider';
import { AppFrame } from './features/frame/app-frame';
import { settingsQuery } from './features/frame/use-settings';
import { bypassCookie, maintenanceFromCookie, skipsMaintenanceCheck } from './features/maintenance/maintenance-rules';
import { MaintenanceGate } from './features/maintenance/maintenance-gate';
import { activePromosQuery } from './features/promo/promo-banner';
import { dismissedPromoCookie, dismissedPromoIn } from './features/promo/dismissed-promo';
import { readCookie } from './lib/cookies';
import type { PageLoaderArgs } from './lib/load-context';
import { markFirstPageHydrated } from './lib/loaded-when-near';
import { useNonce } from './lib/nonce';
import { PageStyles } from './lib/page-styles';
import { loadOnServer, type PageData } from './lib/page-data';
import { queryDataOf } from './lib/page-meta';
import { makeQueryClient, queryClient as browserQueryClient } from './lib/query-client';
import { RenderTimeContext } from './lib/render-time';
import stylesHref from './styles.css?url';

export interface RootData extends PageData {
  /** Who the session cookie belongs to: null for a visitor, undefined when the server could not tell. */
  user: User | null | undefined;
  settings: PublicSettings | null;
  /** The promo this browser hid (spec 4), as its cookie told the server. */
  dismissedPromoId: number | null;
  siteUrl: string;
  /** When the server drew the page (ms): the logo's stamp and the shop's clock. */
  renderedAt: number;
  /** The New Zealand day it was then (YYYY-MM-DD): the footer's year and the chart's first month. */
  renderedOnNzDay: string;
  /** The maintenance bypass flag's cookie (spec 4's local flag, copied for the server). */
  bypassCookie: boolean;
}

/**
 * Once per document: the settings (header, footer, maintenance), the active promo, and who the
 * cookie belongs to. Maintenance is decided here, on the server, before any HTML is written.
 */
export async function loader({ context, request, url }: PageLoaderArgs) {
  const cookies = request.headers.get('cookie') ?? '';
  const [page, user] = await Promise.all([
    loadOnServer(context, [settingsQuery, activePromosQuery]),
    cookies ? context.api<User | null>('/api/me', { on401: 'null' }).catch(() => undefined) : null,
  ]);
  const dehydrated = page.data.dehydrated!;
  const settings = queryDataOf<PublicSettings>(page.data, settingsQuery.queryKey) ?? null;
  const bypass = readCookie(cookies, bypassCookie) === 'true';
  if (settings?.maintenance_mode_enabled && !user?.isAdmin && !skipsMaintenanceCheck(url.pathname, url.search, bypass)) {
    // The page asked for, for a browser whose local bypass flag the server cannot see (maintenance-page.tsx).
    // Never a reset link's token: that page's address is kept without its query.
    const from = url.pathname === '/reset-password' ? url.pathname : url.pathname + url.search;
    const secure = url.protocol === 'https:' ? '; Secure' : '';
    throw redirect('/maintenance', { headers: { 'set-cookie': `${maintenanceFromCookie}=${encodeURIComponent(from)}; Path=/; Max-Age=300; SameSite=Lax${secure}` } });
  }
  const renderedAt = context.now();
  const data: RootData = {
    dehydrated,
    user,
    settings,
    dismissedPromoId: dismissedPromoIn(readCookie(cookies, dismissedPromoCookie)),
    siteUrl: context.siteUrl,
    renderedAt,
    renderedOnNzDay: nzToday(renderedAt),
    bypassCookie: bypass,
  };
  return data;
}

/** The document's data stays for the visit: the pages below keep their own caches fresh. */
export function shouldRevalidate() {
  return false;
}

export function links() {
  return [{ rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }];
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // The page's code arrives after its first paint (decision 0024): from here its controls work.
  // Browser tests wait for it before they act on a freshly loaded page.
  useEffect(() => {
    markFirstPageHydrated();
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <html lang="en-NZ">
      <head>
        <meta charSet="UTF-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#F59E0B" />
        <Meta />
        {/*
          The two fonts are not preloaded: Chromium holds the first paint while a preloaded font
          loads, for a short time. The stylesheet's faces start them once the first text is laid
          out; the fallbacks are sized to match, so the first screens do not move (decision 0044).
        */}
        <PageStyles href={stylesHref} />
        <Links />
      </head>
      <body className="bg-cream-50 text-ink-900">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** Spec 2: while a client navigation loads the next page's code and data, the 'Loading...' spinner. */
function PageOutlet() {
  const navigation = useNavigation();
  const location = useLocation();
  const changingPage = navigation.state === 'loading' && navigation.location.pathname !== location.pathname;
  return changingPage ? <Spinner /> : <Outlet />;
}

export default function App() {
  const root = useLoaderData<typeof loader>();
  // One client per request on the server (never shared between shoppers); the browser keeps one.
  const [client] = useState(() => (typeof window === 'undefined' ? makeQueryClient() : browserQueryClient));
  const renderTime = useMemo(() => ({ at: root.renderedAt, nzDay: root.renderedOnNzDay }), [root.renderedAt, root.renderedOnNzDay]);
  return (
    <QueryClientProvider client={client}>
      <HydrationBoundary state={root.dehydrated}>
        <RenderTimeContext.Provider value={renderTime}>
          <AuthProvider initialUser={root.user}>
            <CartProvider>
              <AppFrame dismissedPromoId={root.dismissedPromoId}>
                <MaintenanceGate settings={root.settings} bypassCookie={root.bypassCookie}>
                  <PageOutlet />
                </MaintenanceGate>
              </AppFrame>
              <Toaster />
            </CartProvider>
          </AuthProvider>
        </RenderTimeContext.Provider>
      </HydrationBoundary>
    </QueryClientProvider>
  );
}

/** A page that failed to render (not a 404: unknown paths have their own page). */
export function ErrorBoundary({ error }: { error: unknown }) {
  const message = isRouteErrorResponse(error) ? `${error.status}: ${error.statusText}` : 'Something went wrong. Please reload the page.';
  return (
    <main className="mx-auto max-w-xl p-8 text-center">
      <h1 className="text-2xl font-semibold">{message}</h1>
      <a href="/" className="mt-6 inline-block font-semibold text-mango-700 hover:underline">Back to the shop</a>
    </main>
  );
}
