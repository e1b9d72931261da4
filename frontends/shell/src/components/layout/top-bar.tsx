import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { NAV_ITEMS } from './nav-items';
import { useScrolledPast } from './use-scrolled-past';

export interface TopBarProps {
  marketingUrl: string;
  /** The right-hand side: sign-in button or avatar menu. */
  actions: ReactNode;
}

/** Top bar with logo and section links; on narrow screens the links move to a bottom bar. */
export function TopBar({ marketingUrl, actions }: TopBarProps) {
  const translucent = useScrolledPast();
  return (
    <>
      <header className={`topbar${translucent ? ' topbar--translucent' : ''}`} data-translucent={translucent}>
        <a className="topbar__logo" href={marketingUrl}>
          Uplift
        </a>
        <nav className="topbar__links" aria-label="Main navigation">
          {NAV_ITEMS.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.to === '/'} className="topbar__link">
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="topbar__actions">{actions}</div>
      </header>
      <nav role="navigation" aria-label="Bottom navigation" className="bottombar">
        {NAV_ITEMS.map((item) => (
          <NavLink key={item.to} to={item.to} end={item.to === '/'} className="bottombar__link">
            {item.icon}
            {/* Words under the icons: a phone user should not have to guess what a drawing means. */}
            {item.label}
          </NavLink>
        ))}
      </nav>
    </>
  );
}
