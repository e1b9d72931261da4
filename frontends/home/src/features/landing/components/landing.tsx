import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, useSubscriptionTiers } from '@uplift/platform';
import { formatMonthlyAmount, publicPlans, type Plan } from '@uplift/platform/plans';
import { TextField } from '@uplift/platform/text-field';

export const LANDING_TITLE = 'Grow your store the easy way';

/** What every plan keeps (the plan dialog says the same: its ALWAYS_FREE_NOTE). */
export const FREE_FEATURES = [
  'A review of your website: a score, where every point went and the exact fix for each problem, again every week',
  "A daily business report from your store's own numbers, with one suggested action",
  'Campaign ideas for the dates coming up, built from your products',
  'Analytics: sales, orders, products and customers from your connected store',
] as const;

// The page's look loads with it, not in the styles every first load downloads.
const CSS = `
.landing__hero { margin-bottom: 1rem; }
.landing__lead { font-size: 1.1rem; max-width: 44rem; }
.landing__score { max-width: 40rem; margin-top: 1rem; }
.landing__plans { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 20rem), 1fr)); gap: 1rem; }
.landing__plans .u-card { margin: 0; }
.landing__price { font-size: 1.5rem; font-weight: 800; margin: .25rem 0 .5rem; }
.landing__list { padding-left: 1.25rem; margin: .5rem 0 1rem; }
.landing__list li { margin-bottom: .35rem; }
.landing__plans h3 { font-size: 1rem; margin: 0; }
`;

/**
 * The signed-out landing (`/`): what Uplift does, what stays free and what
 * the paid plan costs, with the public website score as the first thing to
 * do. Loaded only for visitors, so signed-in owners never download it.
 */
export function Landing() {
  return (
    <>
      <style>{CSS}</style>
      <section className="u-card landing__hero" aria-labelledby="landing-title">
        <h1 id="landing-title">{LANDING_TITLE}</h1>
        <p className="landing__lead">
          Uplift reads your online store&apos;s website and its numbers, tells you what to fix first, reports on your sales
          every morning and suggests campaigns for the dates that matter to your shoppers.
        </p>
        <ScoreForm />
      </section>
      <div className="landing__plans">
        <section className="u-card" aria-labelledby="landing-free-title">
          <h2 id="landing-free-title">Free, on every plan</h2>
          <ul className="landing__list">
            {FREE_FEATURES.map((feature) => (
              <li key={feature}>{feature}</li>
            ))}
          </ul>
          <Link className="u-btn u-btn--secondary" to="/?requireSignup=true">
            Create a free account
          </Link>
        </section>
        <PaidPlans />
      </div>
    </>
  );
}

/** The public score, first: an address in, the score page out (`/website-score?url=…`). */
function ScoreForm() {
  const navigate = useNavigate();
  const [url, setUrl] = useState('');
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = url.trim();
    void navigate(next ? `/website-score?${new URLSearchParams({ url: next })}` : '/website-score');
  };
  return (
    <form className="landing__score" onSubmit={onSubmit} noValidate>
      <TextField
        label="Your store's website"
        name="url"
        type="url"
        inputMode="url"
        placeholder="https://yourstore.com"
        value={url}
        onChange={(event) => setUrl(event.target.value)}
        hint="Free, and no account needed."
        action={<Button type="submit">Get my free website score</Button>}
      />
    </form>
  );
}

/** Each paid plan with its monthly price (spec: amount/100 'per month') and its lists, as the plan dialog shows them. */
function PaidPlans() {
  const tiers = useSubscriptionTiers();
  const paid = tiers.data ? publicPlans(tiers.data).filter((plan) => (plan.tier.prices?.monthly?.amount ?? 0) > 0) : [];
  if (tiers.isPending) return <section className="u-card" aria-label="Paid plan" aria-busy="true" />;
  if (paid.length === 0) {
    return (
      <section className="u-card" aria-labelledby="landing-paid-title">
        <h2 id="landing-paid-title">The paid plan</h2>
        <p>Product-image tools for your store. Its price is shown when you choose a plan in your account.</p>
      </section>
    );
  }
  return (
    <>
      {paid.map((plan) => (
        <PaidPlan key={plan.id} plan={plan} />
      ))}
    </>
  );
}

function PaidPlan({ plan }: { plan: Plan }) {
  const { tier } = plan;
  const titleId = `landing-plan-${plan.id}`;
  return (
    <section className="u-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{tier.name || plan.id}</h2>
      <p className="landing__price">
        {formatMonthlyAmount(tier.prices?.monthly?.amount)} <span className="u-muted">per month</span>
      </p>
      <p>Everything free, plus the product-image tools:</p>
      {tier.included?.length ? (
        <ul className="landing__list" aria-label={`Included in ${tier.name || plan.id}`}>
          {tier.included.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      ) : null}
      {tier.comingSoon?.length ? (
        <>
          <h3 id={`${titleId}-soon`}>Coming soon</h3>
          <ul className="landing__list" aria-labelledby={`${titleId}-soon`}>
            {tier.comingSoon.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
