import type { ReactNode, SVGProps } from 'react';

// The icons of the header and the hero, drawn here rather than through lucide-react: its runtime
// (createLucideIcon and its helpers) cost about 1 KB gzipped of the first load's 80 KB budget
// (scripts/bench/first-load.ts). The paths are lucide's own (ISC licence), with its defaults.
// Sections that load later keep using lucide-react.

type IconProps = SVGProps<SVGSVGElement>;

function icon(paths: ReactNode) {
  return function Icon(props: IconProps) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width="24"
        height="24"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        {...props}
      >
        {paths}
      </svg>
    );
  };
}

export const Menu = icon(<path d="M4 5h16M4 12h16M4 19h16" />);

export const X = icon(<path d="M18 6 6 18M6 6l12 12" />);

export const ShoppingBag = icon(
  <path d="M16 10a4 4 0 0 1-8 0M3.103 6.034h17.794M3.4 5.467a2 2 0 0 0-.4 1.2V20a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6.667a2 2 0 0 0-.4-1.2l-2-2.667A2 2 0 0 0 17 2H7a2 2 0 0 0-1.6.8z" />,
);

export const ArrowDown = icon(<path d="M12 5v14m7-7-7 7-7-7" />);

export const Rocket = icon(
  <path d="M12 15v5s3.03-.55 4-2c1.08-1.62 0-5 0-5M4.5 16.5c-1.5 1.26-2 5-2 5s3.74-.5 5-2c.71-.84.7-2.13-.09-2.91a2.18 2.18 0 0 0-2.91-.09M9 12a22 22 0 0 1 2-3.95A12.88 12.88 0 0 1 22 2c0 2.72-.78 7.5-6 11a22.4 22.4 0 0 1-4 2zm0 0H4s.55-3.03 2-4c1.62-1.08 5 .05 5 .05" />,
);

export const ShoppingCart = icon(
  <>
    <path d="m2.05 2.05 1.099-.028a1 1 0 0 1 1.008.815l2.69 14.347A1 1 0 0 0 7.83 18H18M4.563 5h16.435a1 1 0 0 1 .981 1.204l-1.026 6.226A2 2 0 0 1 18.962 14H6.25" />
    <circle cx="18" cy="20" r="2" />
    <circle cx="8" cy="20" r="2" />
  </>,
);
