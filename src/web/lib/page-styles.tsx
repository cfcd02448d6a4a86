import { createContext, useContext } from 'react';

/**
 * Reads one of the build's stylesheets by its address, for writing it into the page (decision
 * 0014); undefined when it cannot (development, where Vite serves it). Server only: entry.server.tsx
 * provides it from the load context.
 */
export type StylesheetReader = (href: string) => string | undefined;

export const StylesheetContext = createContext<StylesheetReader | undefined>(undefined);

/**
 * The shop's stylesheet, in the page itself: a first visit paints without waiting for another
 * request. The browser keeps the server's <style> (React passes over elements in <head> that only
 * the server drew), so client navigations need nothing more.
 */
export function PageStyles({ href }: { href: string }) {
  const read = useContext(StylesheetContext);
  if (!read) return null;
  const css = read(href);
  // The CSS is the build's own file, never anything a visitor sent.
  return css === undefined ? <link rel="stylesheet" href={href} /> : <style dangerouslySetInnerHTML={{ __html: css }} />;
}
