import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Avatar, studioPath, useUser, type SessionUser } from '@uplift/platform';

export interface AvatarMenuProps {
  user: SessionUser;
  onOpenAccountSettings: () => void;
  onOpenUpgradePlan: () => void;
  onOpenBusinessProfile: () => void;
  /** The plan entry's name: 'Upgrade plan', or 'Your plan' for a paying user. */
  planLabel?: string;
}

/**
 * The signed-in user's menu: their email, Account Settings, Business profile,
 * the product studio (the paid plan's tools, which the top bar's three spec
 * links leave out), the plan and Sign Out.
 */
export function AvatarMenu({
  user,
  onOpenAccountSettings,
  onOpenUpgradePlan,
  onOpenBusinessProfile,
  planLabel = 'Upgrade plan',
}: AvatarMenuProps) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const profile = useUser(user.uid);
  const name = profile.data?.displayName || user.displayName || user.email;
  const email = profile.data?.email || user.email;

  useEffect(() => {
    if (!open) return;
    // The WAI-ARIA menu pattern: arrows, Home and End move between the items.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        return;
      }
      const items = [...(rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
      if (items.length === 0) return;
      const at = items.indexOf(document.activeElement as HTMLElement);
      const next =
        event.key === 'ArrowDown' ? (at + 1) % items.length
        : event.key === 'ArrowUp' ? (at <= 0 ? items.length - 1 : at - 1)
        : event.key === 'Home' ? 0
        : event.key === 'End' ? items.length - 1
        : null;
      if (next === null) return;
      event.preventDefault();
      items[next]!.focus();
    };
    const onPointerDown = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('mousedown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('mousedown', onPointerDown);
    };
  }, [open]);

  const choose = (action: () => void) => () => {
    setOpen(false);
    action();
  };

  return (
    <div className="avatar-menu" ref={rootRef}>
      <button
        type="button"
        className="avatar-menu__trigger"
        aria-label="Open account menu"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
      >
        <Avatar name={name} src={user.photoURL} size="sm" />
      </button>
      {open && (
        <div id={menuId} role="menu" aria-label="Account" className="avatar-menu__panel">
          <p className="avatar-menu__email">{email}</p>
          <button type="button" role="menuitem" onClick={choose(onOpenAccountSettings)}>
            Account Settings
          </button>
          <button type="button" role="menuitem" onClick={choose(onOpenBusinessProfile)}>
            Business profile
          </button>
          <button type="button" role="menuitem" onClick={choose(() => navigate(studioPath()))}>
            Studio
          </button>
          <button type="button" role="menuitem" onClick={choose(onOpenUpgradePlan)}>
            {planLabel}
          </button>
          <button type="button" role="menuitem" onClick={choose(() => navigate('/logout'))}>
            Sign Out
          </button>
        </div>
      )}
    </div>
  );
}
