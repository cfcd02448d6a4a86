import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { startAnalytics, trackPageView } from '../../lib/analytics';
import { useSettings } from '../frame/use-settings';

const noIds = { gaTrackingId: '', metaPixelId: '' };

/**
 * Starts GA4 and the Meta pixel once the settings say which ids to use (spec 7), and reports a page
 * view for the first page and every client-side route change after it.
 */
export function AnalyticsTracker() {
  const settings = useSettings();
  const { pathname, search } = useLocation();
  const ids = settings.data?.analytics;
  const failed = settings.isError;

  useEffect(() => {
    // Spec 8: a failed settings load is logged only; without ids nothing is tracked.
    if (ids) void startAnalytics(ids);
    else if (failed) void startAnalytics(noIds);
  }, [ids, failed]);

  useEffect(() => {
    // A new search is a new view; GA4 gets only the path (the Meta pixel reads the address: decision 0007).
    trackPageView(pathname + search);
  }, [pathname, search]);

  return null;
}
