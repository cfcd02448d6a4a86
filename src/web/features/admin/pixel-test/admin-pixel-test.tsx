import { useState } from 'react';
import { Panel } from '../../../components/ui/panel';
import { useSettings } from '../../frame/use-settings';
import { adminSectionTitles } from '../shared/admin-layout';
import { type PixelEvent, PixelEventButtons } from './pixel-events';
import { captureCalls, type FiredEvent, PixelLog } from './pixel-log';
import { PixelStatus, useScriptStates } from './pixel-status';

let fireCount = 0;

/** Issue 5: are GA4 and the Meta pixel set up and loaded, and does each storefront event go out? */
export function AdminPixelTest() {
  const settings = useSettings();
  const scripts = useScriptStates();
  const [fired, setFired] = useState<FiredEvent[]>([]);
  const ids = settings.data?.analytics ?? { gaTrackingId: '', metaPixelId: '' };
  const fire = (event: PixelEvent) => {
    const sent = captureCalls(event.fire);
    fireCount += 1;
    setFired((current) => [{ id: fireCount, at: new Date(), label: event.label, events: event.events, sample: event.sample, sent }, ...current].slice(0, 50));
  };
  return (
    <section className="grid grid-cols-1 gap-6">
      <h1 className="text-4xl font-semibold">{adminSectionTitles['pixel-test']}</h1>
      <p className="text-ink-500">
        Events fired here go to the real GA4 property and Meta pixel set in Settings, with sample products and prices in NZD. Test purchases use order ids
        starting with TEST-.
      </p>
      <Panel title="Setup">
        {settings.isError ? (
          <p role="alert" className="text-danger-600">
            The settings could not be loaded, so tracking is off on this page.
          </p>
        ) : (
          <div className="grid gap-3 md:grid-cols-2">
            <PixelStatus tool="Google Analytics 4" id={ids.gaTrackingId} state={scripts.ga} />
            <PixelStatus tool="Meta pixel" id={ids.metaPixelId} state={scripts.meta} />
          </div>
        )}
      </Panel>
      <Panel title="Fire an event">
        <PixelEventButtons onFire={fire} />
      </Panel>
      <Panel title="Fired on this page">
        <PixelLog fired={fired} />
      </Panel>
    </section>
  );
}
