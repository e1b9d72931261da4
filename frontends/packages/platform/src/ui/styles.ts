/**
 * The UI kit's one stylesheet. Injected from JS so every app (shell or a remote
 * running alone) gets it without a CSS loader in the build.
 *
 * `.u-table-scroll` is positioned because the sr-only text in a wide table's
 * cells is absolutely positioned: with a static scroller its box escapes the
 * clip and widens the whole page (it once reached 1,031 px at 375 px).
 */
const css = `
:root { --bg: #f4f4f5; --fg: #18181b; --muted: #52525b; --line: #e4e4e7; --brand: #4f46e5; --brand-fg: #fff; --danger: #b91c1c; --danger-bg: #fee2e2; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: var(--fg); }
* { box-sizing: border-box; }
body { margin: 0; background: #fff; }
a { color: inherit; }
.u-btn { display: inline-flex; align-items: center; justify-content: center; gap: .5rem; border: 1px solid transparent; border-radius: .5rem; padding: .5rem 1rem; font: inherit; font-weight: 600; cursor: pointer; background: var(--brand); color: var(--brand-fg); }
.u-btn:disabled { opacity: .6; cursor: not-allowed; }
.u-btn--secondary { background: #fff; color: var(--fg); border-color: var(--line); }
.u-btn--ghost { background: transparent; color: var(--fg); }
.u-btn--block { width: 100%; }
a.u-btn { text-decoration: none; }
.u-link-btn { background: none; border: 0; padding: 0; font: inherit; color: var(--brand); cursor: pointer; text-decoration: underline; }
.u-spinner { width: 1em; height: 1em; border: 2px solid currentColor; border-right-color: transparent; border-radius: 50%; animation: u-spin .7s linear infinite; display: inline-block; }
@keyframes u-spin { to { transform: rotate(360deg); } }
.u-overlay { position: fixed; inset: 0; background: rgba(0,0,0,.4); display: flex; align-items: center; justify-content: center; padding: 1rem; z-index: 50; }
.u-dialog { position: relative; display: flex; flex-direction: column; background: #fff; border-radius: .75rem; width: 100%; max-height: calc(100vh - 2rem); overflow: hidden; box-shadow: 0 10px 30px rgba(0,0,0,.2); }
.u-dialog__body { padding: 1.5rem; overflow: auto; min-height: 0; }
.u-dialog--lg { max-width: 32rem; } .u-dialog--2xl { max-width: 42rem; } .u-dialog--3xl { max-width: 48rem; } .u-dialog--4xl { max-width: 56rem; } .u-dialog--5xl { max-width: 64rem; }
.u-dialog__title { margin: 0 0 .25rem; padding-right: 2rem; font-size: 1.25rem; }
.u-dialog__close { position: absolute; top: 1.15rem; right: 1rem; width: 2rem; height: 2rem; border: 0; border-radius: .375rem; background: #fff; color: var(--muted); font-size: 1.5rem; cursor: pointer; }
.u-dialog__description { margin: 0 0 1rem; color: var(--muted); }
.u-field { display: flex; flex-direction: column; gap: .25rem; margin-bottom: .75rem; font-weight: 500; }
.u-input { font: inherit; padding: .5rem .75rem; border: 1px solid var(--line); border-radius: .5rem; }
select.u-input { max-width: 100%; }
.u-field__note { color: var(--muted); font-size: .9rem; font-weight: 400; overflow-wrap: anywhere; }
.u-field__row { display: flex; flex-wrap: wrap; gap: .5rem; }
.u-field__row .u-input { flex: 1; min-width: min(100%, 14rem); }
.u-field__error, .u-field__required { color: var(--danger); }
.u-input[aria-invalid='true'] { border-color: var(--danger); }
.u-alert { background: var(--danger-bg); color: var(--danger); border-radius: .5rem; padding: .5rem .75rem; margin-bottom: .75rem; }
.u-error-card { border: 1px solid #fecaca; background: #fff5f5; border-radius: .75rem; padding: 1rem 1.25rem; margin: 1rem; }
.u-error-card h2 { margin: 0 0 .25rem; font-size: 1.1rem; color: var(--danger); }
.u-toasts { position: fixed; right: 1rem; bottom: 1rem; display: flex; flex-direction: column; gap: .5rem; z-index: 60; }
.u-toast { background: var(--danger); color: #fff; padding: .75rem 1rem; border-radius: .5rem; box-shadow: 0 4px 12px rgba(0,0,0,.2); max-width: 24rem; }
.u-avatar { display: inline-flex; align-items: center; justify-content: center; border-radius: 50%; background: var(--brand); color: var(--brand-fg); font-weight: 700; overflow: hidden; flex: none; }
.u-avatar img { width: 100%; height: 100%; object-fit: cover; }
.u-page { max-width: 72rem; margin: 0 auto; padding: 1.5rem 1rem 6rem; }
.u-page h1 { margin-top: 0; }
.auth-pending { position: fixed; inset: 0; background: #e5e7eb; }
.topbar { position: sticky; top: 0; z-index: 40; display: flex; align-items: center; gap: 1.5rem; padding: .75rem 1rem; background: #fff; border-bottom: 1px solid var(--line); transition: background-color .2s; }
.topbar--translucent { background: rgba(255,255,255,.7); backdrop-filter: blur(8px); }
.topbar__logo { font-weight: 800; font-size: 1.25rem; text-decoration: none; color: var(--brand); }
.topbar__links { display: flex; gap: 1rem; flex: 1; }
.topbar__link { text-decoration: none; color: var(--muted); padding: .25rem .5rem; border-radius: .375rem; font-weight: 500; }
.topbar__link[aria-current='page'] { color: var(--brand); background: #eef2ff; }
.topbar__actions { margin-left: auto; }
.bottombar { display: none; }
@media (max-width: 767px) {
  .topbar__links { display: none; }
  .bottombar { display: flex; position: fixed; left: 0; right: 0; bottom: 0; z-index: 40; justify-content: space-around; padding: .5rem; background: #fff; border-top: 1px solid var(--line); }
  .bottombar__link { display: flex; flex-direction: column; align-items: center; padding: .375rem .75rem; color: var(--muted); border-radius: .5rem; text-decoration: none; font-size: .75rem; font-weight: 600; }
  .bottombar__link[aria-current='page'] { color: var(--brand); background: #eef2ff; }
}
.plans { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 1rem; }
.plans__note { margin: 0 0 1rem; display: flex; align-items: center; gap: .5rem; }
.plans__note a { color: var(--brand); }
.plan-card { border: 1px solid var(--line); border-radius: .75rem; padding: 1.25rem; display: flex; flex-direction: column; gap: .75rem; }
.plan-card--current { border-color: var(--brand); }
.plan-card__name { margin: 0; font-size: 1.1rem; }
.plan-card__price { margin: 0; color: var(--muted); }
.plan-card__amount { font-size: 1.75rem; font-weight: 800; color: var(--fg); }
.plan-card__list-title { margin: .25rem 0 0; font-size: .95rem; }
.plan-card__list { margin: 0; padding-left: 1.25rem; color: var(--muted); }
.u-textarea { resize: none; overflow-y: auto; min-height: 4.5rem; }
.u-textarea[readonly] { background: var(--bg); color: var(--muted); }
.u-switch { display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: .5rem 0; }
.u-switch__text { display: flex; flex-direction: column; gap: .125rem; }
.u-switch__label { font-weight: 600; }
.u-switch__description { color: var(--muted); font-size: .9rem; }
.u-switch__input { appearance: none; flex: none; width: 2.5rem; height: 1.4rem; border-radius: 999px; background: #d4d4d8; position: relative; cursor: pointer; transition: background-color .15s; margin: 0; }
.u-switch__input::after { content: ''; position: absolute; top: .2rem; left: .2rem; width: 1rem; height: 1rem; border-radius: 50%; background: #fff; transition: transform .15s; }
.u-switch__input:checked { background: var(--brand); }
.u-switch__input:checked::after { transform: translateX(1.1rem); }
.u-switch__input:focus-visible { outline: 2px solid var(--brand); outline-offset: 2px; }
.u-dialog__actions { display: flex; justify-content: flex-end; gap: .5rem; margin-top: 1rem; }
.u-card { border: 1px solid var(--line); border-radius: .75rem; padding: 1.25rem; margin-bottom: 1rem; background: #fff; }
.u-card h2 { margin: 0 0 .75rem; font-size: 1.15rem; }
.u-muted { color: var(--muted); }
.u-badge { display: inline-block; font-size: .75rem; font-weight: 700; padding: .1rem .5rem; border-radius: 999px; text-transform: uppercase; letter-spacing: .02em; }
.u-badge--new { background: #fef3c7; color: #92400e; }
.u-badge--fixed { background: #dcfce7; color: #166534; }
.u-progress { height: .5rem; background: var(--bg); border-radius: 999px; overflow: hidden; }
.u-progress__bar { height: 100%; background: var(--brand); transition: width .3s; }
.score { display: flex; align-items: center; gap: 1rem; }
.score__value { font-size: 2.5rem; font-weight: 800; line-height: 1; }
.score__band { font-weight: 700; text-transform: capitalize; padding: .2rem .6rem; border-radius: 999px; }
.score--poor .score__value { color: #b91c1c; } .score--poor .score__band { background: #fee2e2; color: #991b1b; }
.score--low .score__value { color: #c2410c; } .score--low .score__band { background: #ffedd5; color: #9a3412; }
.score--medium .score__value { color: #a16207; } .score--medium .score__band { background: #fef9c3; color: #854d0e; }
.score--high .score__value { color: #15803d; } .score--high .score__band { background: #dcfce7; color: #166534; }
.findings__group { margin: 1rem 0 .5rem; font-size: 1rem; text-transform: capitalize; }
.finding { border: 1px solid var(--line); border-radius: .5rem; margin-bottom: .5rem; }
.finding__toggle { width: 100%; display: flex; align-items: center; gap: .5rem; background: none; border: 0; font: inherit; text-align: left; padding: .6rem .75rem; cursor: pointer; }
.finding__title { flex: 1; font-weight: 600; }
.finding__points { color: var(--danger); font-weight: 600; white-space: nowrap; }
.finding__body { padding: 0 .75rem .75rem; }
.finding__body dt { font-weight: 600; margin-top: .5rem; }
.finding__body dd { margin: 0; overflow-wrap: anywhere; }
.points { width: 100%; border-collapse: collapse; }
.points th, .points td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
.points td:last-child, .points th:last-child { text-align: right; }
.ideas { list-style: none; padding: 0; margin: 0; display: grid; gap: .5rem; }
.ideas a { display: block; padding: .75rem; border: 1px solid var(--line); border-radius: .5rem; text-decoration: none; }
.ideas a:hover { border-color: var(--brand); }
.insight__evidence { color: var(--muted); font-size: .9rem; margin: .25rem 0 0; }
.inline-form { display: flex; gap: .5rem; flex-wrap: wrap; }
.inline-form .u-input { flex: 1; min-width: 14rem; }
.avatar-menu { position: relative; }
.avatar-menu__trigger { background: none; border: 0; padding: 0; cursor: pointer; border-radius: 50%; }
.avatar-menu__panel { position: absolute; right: 0; top: calc(100% + .5rem); min-width: 14rem; background: #fff; border: 1px solid var(--line); border-radius: .5rem; box-shadow: 0 8px 24px rgba(0,0,0,.12); padding: .5rem; display: flex; flex-direction: column; z-index: 45; }
.avatar-menu__email { margin: .25rem .5rem .5rem; color: var(--muted); font-size: .9rem; overflow-wrap: anywhere; }
.avatar-menu__panel [role='menuitem'] { text-align: left; background: none; border: 0; font: inherit; padding: .5rem; border-radius: .375rem; cursor: pointer; }
.avatar-menu__panel [role='menuitem']:hover, .avatar-menu__panel [role='menuitem']:focus-visible { background: var(--bg); }
.u-note { background: #ecfdf5; color: #065f46; border-radius: .5rem; padding: .5rem .75rem; margin-bottom: .75rem; }
.u-note--warn { background: #fffbeb; color: #92400e; }
.u-note--danger { background: var(--danger-bg); color: var(--danger); }
.on-behalf-banner { position: fixed; left: 0; right: 0; bottom: 0; z-index: 55; display: flex; align-items: center; justify-content: center; gap: 1rem; padding: .75rem 1rem; background: var(--danger); color: #fff; font-weight: 600; }
.on-behalf-banner button { background: #fff; color: var(--danger); border: 0; border-radius: .375rem; padding: .25rem .75rem; font: inherit; cursor: pointer; }
.consent-banner { max-width: 72rem; margin: .75rem auto 0; padding: .75rem 1rem; display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .75rem; border: 1px solid var(--line); border-radius: .5rem; background: var(--bg); }
.consent-banner p { margin: 0; flex: 1 1 20rem; }
.consent-banner__actions { display: flex; gap: .5rem; }
.account-settings { display: grid; gap: 1rem; }
.account-settings__row { display: flex; align-items: center; justify-content: space-between; gap: 1rem; flex-wrap: wrap; }
.account-settings__row dt { font-weight: 600; } .account-settings__row dd { margin: 0; flex: 1; overflow-wrap: anywhere; }
.account-settings__row dd.account-settings__actions { display: contents; }
.totp__qr { display: block; width: 12rem; height: 12rem; image-rendering: pixelated; }
.totp__secret { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
.owners { list-style: none; padding: 0; display: grid; gap: .5rem; }
.owners li { display: flex; align-items: center; justify-content: space-between; gap: 1rem; border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .75rem; }
.u-sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.u-hint { display: inline-flex; vertical-align: middle; }
.u-hint__button { display: inline-flex; align-items: center; justify-content: center; width: 1.5rem; height: 1.5rem; padding: 0; border: 0; border-radius: 50%; background: none; color: var(--muted); cursor: help; flex: none; }
.u-hint__button:hover, .u-hint__button:focus-visible { color: var(--brand); }
.u-hint__button:focus-visible { outline: 2px solid var(--brand); outline-offset: 1px; }
.u-hint__tip { position: fixed; top: 0; left: 0; z-index: 70; width: max-content; max-width: min(18rem, calc(100vw - 1rem)); padding: .5rem .65rem; border-radius: .375rem; background: var(--fg); color: #fff; font-size: .85rem; font-weight: 400; line-height: 1.35; text-align: left; white-space: normal; text-transform: none; letter-spacing: normal; box-shadow: 0 4px 12px rgba(0,0,0,.2); }
.u-hint__tip[hidden] { display: none; }
.u-change { font-weight: 700; white-space: nowrap; }
.u-change--good { color: #15803d; } .u-change--bad { color: #b91c1c; } .u-change--neutral { color: var(--muted); }
.u-badge--unusual { background: #fef3c7; color: #92400e; }
.u-table-scroll { position: relative; max-width: 100%; overflow-x: auto; }
.u-table-scroll:focus-visible { outline: 2px solid var(--brand); outline-offset: 2px; }
.u-mismatch { display: block; font-size: .75rem; color: #b45309; }
.u-mismatch::before { content: "≠ "; }
.u-table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
.u-table caption { text-align: left; }
.u-table th, .u-table td { padding: .4rem .6rem; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
.u-table th:first-child, .u-table td:first-child { text-align: left; }
.u-table thead th { font-size: .85rem; color: var(--muted); vertical-align: bottom; white-space: normal; }
.u-table tfoot th, .u-table tfoot td { font-weight: 700; border-top: 2px solid var(--line); border-bottom: 0; }
.u-table__head { display: inline-flex; align-items: center; gap: .125rem; }
.range-picker { display: flex; flex-wrap: wrap; align-items: flex-end; gap: .75rem; margin-bottom: .5rem; }
.range-picker .u-field { margin-bottom: 0; }
.range-picker__span { margin: 0 0 1rem; }
.metric-cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 9.5rem), 1fr)); gap: .75rem; margin-bottom: 1rem; }
.metric-card { min-width: 0; border: 1px solid var(--line); border-radius: .75rem; padding: .875rem 1rem; background: #fff; }
.metric-card__label { display: flex; align-items: center; gap: .25rem; margin: 0; color: var(--muted); font-weight: 600; font-size: .9rem; }
.metric-card__value { margin: .25rem 0; font-size: clamp(1.2rem, 4.5vw, 1.6rem); font-weight: 800; line-height: 1.2; overflow-wrap: anywhere; }
.metric-card__change, .metric-card__note { margin: 0; font-size: .85rem; color: var(--muted); }
.metric-card__note { margin-top: .25rem; }
.chart { margin: 0 0 1rem; min-width: 0; }
.chart figcaption h2 { margin-bottom: .25rem; }
.top-products td:first-child { white-space: normal; overflow-wrap: anywhere; min-width: 9rem; }
.daily-report__headline { font-size: 1.05rem; font-weight: 600; }
.daily-report__metrics { list-style: none; padding: 0; margin: 0 0 1rem; display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 12rem), 1fr)); gap: .75rem; }
.daily-metric { min-width: 0; border: 1px solid var(--line); border-radius: .5rem; padding: .75rem; }
.daily-metric--unusual { border: 2px solid #d97706; background: #fffbeb; }
.daily-metric__label { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem; margin: 0; color: var(--muted); font-weight: 600; font-size: .9rem; }
.daily-metric__value { margin: .25rem 0; font-size: 1.35rem; font-weight: 800; overflow-wrap: anywhere; }
.daily-metric__detail { margin: 0; font-size: .85rem; color: var(--muted); }
.daily-report__notes { margin: 0 0 1rem; padding-left: 1.25rem; }
.daily-report__action { margin-top: 1rem; padding: .75rem .875rem; background: #f7f5ff; border-radius: .5rem; }
.daily-report__action h3 { margin: 0 0 .25rem; font-size: 1rem; }
.daily-report__action p { margin: 0; }
.audit-log { list-style: none; margin: 0; padding: 0; }
.audit-log__entry { display: flex; flex-wrap: wrap; gap: .25rem .5rem; padding: .5rem 0; border-bottom: 1px solid var(--line); }
.audit-log__entry:last-child { border-bottom: 0; }
.audit-log__what { font-weight: 600; }
.audit-log__who { overflow-wrap: anywhere; }
.audit-log__when { flex-basis: 100%; font-size: .875rem; }
`;

let injected = false;

export function injectStyles(): void {
  if (injected || typeof document === 'undefined') return;
  injected = true;
  const style = document.createElement('style');
  style.dataset.uplift = 'ui';
  style.textContent = css;
  document.head.appendChild(style);
}
