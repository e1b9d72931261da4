import { Link } from 'react-router';
import { Dialog, studioPath, useSubscriptionTiers } from '@uplift/platform';

export interface PurchaseConfirmationProps {
  /** The tier the purchase brought (its id in the tiers map). */
  tierId: string;
  onClose: () => void;
}

/**
 * Says the purchase went through once the plan has arrived, what it now
 * includes, and where its tools are.
 */
export function PurchaseConfirmation({ tierId, onClose }: PurchaseConfirmationProps) {
  const tiers = useSubscriptionTiers();
  const tier = tiers.data?.[tierId];
  const name = tier?.name || tierId;
  return (
    <Dialog open onClose={onClose} title={`You're on the ${name} plan`} description="Thank you: your payment went through.">
      {(tier?.included?.length ?? 0) > 0 && (
        <>
          <h3 className="plan-card__list-title">Now included</h3>
          <ul className="plan-card__list">
            {tier?.included?.map((item) => <li key={item}>{item}</li>)}
          </ul>
        </>
      )}
      <p>You can see or change your plan at any time under Your plan in the account menu.</p>
      <div className="u-dialog__actions">
        <button type="button" className="u-btn u-btn--secondary" onClick={onClose}>
          Done
        </button>
        <Link to={studioPath()} className="u-btn" onClick={onClose}>
          Open the Studio
        </Link>
      </div>
    </Dialog>
  );
}
