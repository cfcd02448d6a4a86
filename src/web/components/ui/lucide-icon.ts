import { createElement, type ReactNode, type SVGProps } from 'react';

/** An icon's drawing as lucide ships it in each icon's own module. */
interface IconData {
  name: string;
  aliases?: readonly string[];
  node: Array<[string, Record<string, string>]>;
}

type IconProps = SVGProps<SVGSVGElement> & { size?: number | string; absoluteStrokeWidth?: boolean; children?: ReactNode };

/**
 * Draws a lucide icon: the SVG lucide-react's own component draws (its attributes, classes and
 * stroke), hidden from screen readers unless it is labelled. The browser's build uses it in place
 * of lucide-react's `createLucideIcon` (scripts/vite-lucide-icons.ts), which brings context and
 * other code every page paid for and none uses; the server renders with lucide's own, to the
 * same markup.
 */
export default function createLucideIcon(icon: IconData) {
  const classes = ['lucide', `lucide-${icon.name}`, ...(icon.aliases ?? []).map((alias) => `lucide-${alias}`)].join(' ');
  function LucideIcon({ size = 24, width, height, color, strokeWidth = 2, absoluteStrokeWidth, className, children, ...rest }: IconProps) {
    const labelled = Boolean(children) || Object.entries(rest).some(([name, value]) => (name.startsWith('aria-') || name === 'role' || name === 'title') && value != null);
    return createElement(
      'svg',
      {
        xmlns: 'http://www.w3.org/2000/svg',
        width: width ?? size,
        height: height ?? size,
        viewBox: '0 0 24 24',
        fill: 'none',
        stroke: color || 'currentColor',
        strokeWidth: absoluteStrokeWidth ? (Number(strokeWidth) * 24) / Number(width ?? size) : strokeWidth,
        strokeLinecap: 'round',
        strokeLinejoin: 'round',
        className: className ? `${classes} ${className}` : classes,
        ...(labelled ? {} : { 'aria-hidden': 'true' }),
        ...rest,
      },
      ...icon.node.map(([tag, attributes]) => createElement(tag, attributes)),
      children,
    );
  }
  LucideIcon.displayName = icon.name;
  return LucideIcon;
}
