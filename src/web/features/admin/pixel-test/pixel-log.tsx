import type { PixelEvent, PixelTool } from './pixel-events';

const clock = new Intl.DateTimeFormat('en-NZ', { hour: 'numeric', minute: '2-digit', second: '2-digit' });

/** One call that reached GA4 (gtag) or the Meta pixel (fbq), with its arguments as sent. */
export interface SentCall {
  tool: PixelTool;
  args: unknown[];
}

export interface FiredEvent {
  id: number;
  at: Date;
  label: string;
  events: PixelEvent['events'];
  sample: unknown;
  sent: SentCall[];
}

/**
 * Runs `fire` while listening on window.gtag and window.fbq, and answers the calls the analytics
 * module made to them; both are given back as they were before returning.
 */
export function captureCalls(fire: () => void): SentCall[] {
  const sent: SentCall[] = [];
  const { gtag, fbq } = window;
  if (gtag) {
    window.gtag = (...args: unknown[]) => {
      sent.push({ tool: 'GA4', args });
      gtag(...args);
    };
  }
  if (fbq) {
    const listener = (...args: unknown[]) => {
      sent.push({ tool: 'Meta', args });
      fbq(...args);
    };
    window.fbq = listener as unknown as typeof fbq;
  }
  try {
    fire();
  } finally {
    window.gtag = gtag;
    window.fbq = fbq;
  }
  return sent;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** What was fired on this page, newest first. */
export function PixelLog({ fired }: { fired: FiredEvent[] }) {
  if (fired.length === 0) return <p className="text-ink-500">Nothing fired yet. Each button above sends one event; it is listed here with what went out.</p>;
  return (
    <ol className="divide-y divide-mango-50" aria-live="polite">
      {fired.map((entry) => (
        <li key={entry.id} className="grid gap-2 py-3 text-sm">
          <div className="flex flex-wrap items-baseline justify-between gap-x-4">
            <span>
              <span className="font-semibold">{entry.label}</span> <code className="rounded bg-mango-50 px-1.5 py-0.5 text-mango-700">{entry.events.map((event) => event.name).join(' + ')}</code>
            </span>
            <time dateTime={entry.at.toISOString()} className="text-ink-500">
              {clock.format(entry.at)}
            </time>
          </div>
          {entry.sent.map((call, index) => (
            <div key={index} className="grid min-w-0 gap-1">
              <span className="font-medium">Sent to {call.tool}</span>
              <pre tabIndex={0} className="max-h-64 overflow-auto rounded-lg bg-cream-50 p-3 text-xs">{json(call.args)}</pre>
            </div>
          ))}
          {[...new Set(entry.events.map((event) => event.tool))]
            .filter((tool) => !entry.sent.some((call) => call.tool === tool))
            .map((tool) => (
              <p key={tool} className="text-mango-700">
                Not sent to {tool}: it is off on this page (no id in settings, or the settings have not loaded yet).
              </p>
            ))}
          <details>
            <summary className="cursor-pointer text-mango-700">Sample parameters</summary>
            <pre tabIndex={0} className="mt-2 max-h-64 overflow-auto rounded-lg bg-cream-50 p-3 text-xs">{json(entry.sample)}</pre>
          </details>
        </li>
      ))}
    </ol>
  );
}
