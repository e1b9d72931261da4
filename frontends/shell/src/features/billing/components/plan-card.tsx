import { useId } from 'react';
import { Button } from '@uplift/platform';
import { formatMonthlyAmount, type Plan } from '../lib/plans';

export interface PlanCardProps {
  plan: Plan;
  current: boolean;
  /** Another action is leaving the page (checkout or portal): nothing else may start. */
  redirecting: boolean;
  /** This card's checkout is the one being prepared. */
  pending: boolean;
  purchasable: boolean;
  onUpgrade: (plan: Plan) => void;
}

function FeatureList({ title, items }: { title: string; items: string[] | undefined }) {
  const headingId = useId();
  if (!items?.length) return null;
  return (
    <>
      <h4 id={headingId} className="plan-card__list-title">
        {title}
      </h4>
      <ul aria-labelledby={headingId} className="plan-card__list">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </>
  );
}

/** One tier: name, monthly price, the action, and what it includes. */
export function PlanCard({ plan, current, redirecting, pending, purchasable, onUpgrade }: PlanCardProps) {
  const nameId = useId();
  const { tier } = plan;
  return (
    <section aria-labelledby={nameId} className={`plan-card${current ? ' plan-card--current' : ''}`}>
      <h3 id={nameId} className="plan-card__name">
        {tier.name || plan.id}
      </h3>
      <p className="plan-card__price">
        <span className="plan-card__amount">{formatMonthlyAmount(tier.prices?.monthly?.amount)}</span> per month
      </p>
      {current ? (
        <Button variant="secondary" block disabled>
          Current Plan
        </Button>
      ) : (
        <Button block loading={pending} disabled={redirecting || !purchasable} onClick={() => onUpgrade(plan)}>
          Upgrade
        </Button>
      )}
      <FeatureList title="What's included" items={tier.included} />
      <FeatureList title="Coming soon" items={tier.comingSoon} />
    </section>
  );
}
