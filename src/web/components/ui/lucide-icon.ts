import { createElement, type ReactNode, type SVGProps } from 'react';

/** An icon's drawing as lucide ships it in each icon's own module. */
interface IconData {
  name: string;
  node: Array<[string, Record<string, string>]>;
}

type IconProps = SVGProps<SVGSVGElement> & { size?: number | string; children?: ReactNode };

/**
 * Draws a lucide icon: the same SVG lucide-react's own component draws for the props the shop
 * passes (size, strokeWidth, color, className, aria and SVG attributes), hidden from screen readers
 * unless it is labelled. The built shop uses it in place of lucide-react's `createLucideIcon`
 * (scripts/vite-lucide-icons.ts), which brings context, alias and stroke-scaling code every page
 * paid for and none uses.
 */
export default function createLucideIcon(icon: IconData) {
  function LucideIcon({ size = 24, color = 'currentColor', strokeWidth = 2, className, children, ...rest }: IconProps) {
    const labelled = children != null || Object.entries(rest).some(([name, value]) => (name.startsWith('aria-') || name === 'role' || name === 'title') && value != null);
    return createElement(
      'svg',
      {
        xmlns: 'http://www.w3.org/2000/svg',
        width: size,
        height: size,
        viewBox: '0 0 24 24',
        fill: 'none',
        stroke: color,
        strokeWidth,
        strokeLinecap: 'round',
        strokeLinejoin: 'round',
        className: className ? `lucide lucide-${icon.name} ${className}` : `lucide lucide-${icon.name}`,
        ...(labelled ? {} : { 'aria-hidden': 'true' }),
        ...rest,
      },
      ...icon.node.map(([tag, attributes]) => createElement(tag, attributes)),
      children,
    );
  }
  return LucideIcon;
}
