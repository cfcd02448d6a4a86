import { useEffect, useState } from 'react';

export interface ScriptState {
  /** The page has the tool's function (window.gtag or window.fbq) to send events with. */
  ready: boolean;
  /** The tool's script was added to the page. */
  requested: boolean;
  /** The script arrived and ran (blockers and offline browsers stop it). */
  loaded: boolean;
}

function readScripts(): { ga: ScriptState; meta: ScriptState } {
  const fbq = window.fbq;
  return {
    ga: {
      ready: typeof window.gtag === 'function',
      requested: document.querySelector('script[src^="https://www.googletagmanager.com/gtag/js"]') !== null,
      loaded: 'google_tag_manager' in window,
    },
    meta: {
      ready: typeof fbq === 'function',
      requested: document.querySelector('script[src="https://connect.facebook.net/en_US/fbevents.js"]') !== null,
      loaded: typeof fbq?.callMethod === 'function',
    },
  };
}

/** The scripts' state on this page, checked again every 2 seconds while they may still be loading. */
export function useScriptStates() {
  const [states, setStates] = useState(readScripts);
  useEffect(() => {
    const timer = window.setInterval(() => setStates(readScripts()), 2000);
    return () => window.clearInterval(timer);
  }, []);
  return states;
}

function describe(id: string, state: ScriptState): { text: string; tone: string } {
  if (!id) return { text: 'Off: no id in settings, so nothing is sent', tone: 'text-ink-500' };
  if (state.loaded) return { text: 'Script loaded: events are sent', tone: 'text-leaf-700' };
  if (state.requested) return { text: 'Script requested but not loaded (still loading, or blocked by the browser)', tone: 'text-mango-700' };
  return { text: 'Not started yet: waiting for the settings', tone: 'text-mango-700' };
}

/** Whether an id is set and its script is on this page. */
export function PixelStatus({ tool, id, state }: { tool: string; id: string; state: ScriptState }) {
  const status = describe(id, state);
  return (
    <div className="grid content-start gap-2 rounded-xl bg-cream-50 p-4 ring-1 ring-mango-50">
      <h3 className="font-semibold">{tool}</h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-ink-500">Id in settings</dt>
        <dd className="font-mono break-all">{id || 'Not set'}</dd>
        <dt className="text-ink-500">Script</dt>
        <dd className={`font-medium ${status.tone}`}>{status.text}</dd>
      </dl>
    </div>
  );
}
