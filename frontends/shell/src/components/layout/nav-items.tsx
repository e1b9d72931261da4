import type { ReactNode } from 'react';

export interface NavItem {
  to: string;
  label: string;
  icon: ReactNode;
}

const svg = (path: ReactNode) => (
  <svg viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    {path}
  </svg>
);

/** The signed-in area's three sections, shared by the top links and the bottom bar. */
export const NAV_ITEMS: NavItem[] = [
  { to: '/', label: 'Home', icon: svg(<path d="M3 11l9-8 9 8v10a1 1 0 0 1-1 1h-5v-7H9v7H4a1 1 0 0 1-1-1z" />) },
  { to: '/analytics', label: 'Analytics', icon: svg(<path d="M4 20V10M10 20V4M16 20v-7M22 20H2" />) },
  {
    to: '/connections',
    label: 'Connections',
    icon: svg(<path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />),
  },
];
