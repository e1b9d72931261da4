import { useState } from 'react';
import { Link } from 'react-router';
import {
  browser,
  CENTS_PER_UNIT,
  Dialog,
  LOADING_TEXT,
  openSupportChat,
  Spinner,
  studioPath,
  UNKNOWN_ERROR_MESSAGE,
  toast,
  trackEvent,
  useCreateStripeCheckout,
  useCreateStripeCustomerPortal,
  useProfile,
  useSession,
  useSubscriptionTiers,
  useUser,
} from '@uplift/platform';
import { useEnv } from '../../../lib/env-context';
import { checkoutBody, currentTierId, isPaidTier, isPurchasable, planDialogTitle, visiblePlans, type Plan } from '../lib/plans';
import { PlanCard } from './plan-card';

export interface UpgradePlanDialogProps {
  open: boolean;
  onClose: () => void;
  /** Opened as the trial dialog (`?showTrialDialog=true`): it says what the free trial of the tools is. */
  trial?: boolean;
  /** Opened on return from a purchase whose plan has arrived: it confirms the purchase. */
  purchased?: boolean;
}

/** The confirmation a purchase gets once its plan is on the account. */
export const PURCHASE_CONFIRMATION = "Thank you: your payment went through, and this is now your plan.";

/** There is no paid trial (spec: freeTrial is sent false): the trial is the free plan's use of the paid tools. */
export const TRIAL_DESCRIPTION =
  'Your free trial: every Studio tool works on the free plan, on watermarked previews with a few downloads a month. Upgrade when you want more.';

function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : UNKNOWN_ERROR_MESSAGE;
}

/** What every plan keeps, so nobody upgrades (or stays away) for the wrong reason. */
export const ALWAYS_FREE_NOTE =
  'Always free, on every plan: your website review, the weekly and daily reports, campaign ideas and Analytics.';

/**
 * The Upgrade plan dialog (spec section 2 item 5), also used as the trial
 * dialog; a paying user's is 'Your plan'. Only rendered for a signed-in user.
 */
export function UpgradePlanDialog({ open, onClose, trial = false, purchased = false }: UpgradePlanDialogProps) {
  const session = useSession();
  const user = useUser(session.status === 'signedIn' ? session.user.uid : undefined);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={planDialogTitle(user.data?.billingInfo)}
      description={purchased ? PURCHASE_CONFIRMATION : trial ? TRIAL_DESCRIPTION : undefined}
      size="5xl"
    >
      {open && <UpgradePlanContent onClose={onClose} />}
    </Dialog>
  );
}

function UpgradePlanContent({ onClose }: { onClose: () => void }) {
  const session = useSession();
  const env = useEnv();
  const uid = session.status === 'signedIn' ? session.user.uid : undefined;
  const user = useUser(uid);
  const profile = useProfile(uid);
  const tiers = useSubscriptionTiers();
  const checkout = useCreateStripeCheckout();
  const portal = useCreateStripeCustomerPortal();
  // Set from the click until the browser has left, so no second redirect can start.
  const [redirecting, setRedirecting] = useState(false);
  const [pendingPlanId, setPendingPlanId] = useState<string | null>(null);

  if (tiers.isPending || user.isPending) return <Spinner label={LOADING_TEXT} />;
  if (tiers.isError || user.isError || !tiers.data || !user.data) {
    return <p className="u-alert">Plans could not be loaded. Please try again.</p>;
  }

  const billingInfo = user.data.billingInfo;
  const currentTier = currentTierId(billingInfo);
  const manual = Boolean(billingInfo?.isManuallySet);
  const plans = visiblePlans(tiers.data, billingInfo);
  const categoryId = user.data.categoryId || profile.data?.categoryId;
  const email = user.data.email || (session.status === 'signedIn' ? session.user.email : null) || '';

  const leaveFor = (url: string | undefined) => {
    if (!url) throw new Error(UNKNOWN_ERROR_MESSAGE);
    browser.assign(url);
  };
  const fail = (error: unknown) => {
    setRedirecting(false);
    setPendingPlanId(null);
    toast.error(errorMessage(error));
  };
  const withCategory = (run: (categoryId: string) => void) => {
    if (!categoryId) return fail(new Error('Your business profile is not ready yet. Please try again.'));
    setRedirecting(true);
    run(categoryId);
  };

  const upgrade = (plan: Plan) =>
    withCategory((categoryId) => {
      setPendingPlanId(plan.id);
      checkout.mutate(
        { categoryId, body: checkoutBody({ plan, customerEmail: email, currentUrl: browser.currentUrl() }) },
        {
          onSuccess: (response) => {
            trackEvent('begin_checkout', {
              tier: plan.id,
              value: (plan.tier.prices?.monthly?.amount ?? 0) / CENTS_PER_UNIT,
            });
            try {
              leaveFor(response.url);
            } catch (error) {
              fail(error);
            }
          },
          onError: fail,
        },
      );
    });

  const manageSubscription = () =>
    withCategory((categoryId) =>
      portal.mutate(
        { categoryId, redirectUrl: browser.currentUrl() },
        {
          onSuccess: (response) => {
            try {
              leaveFor(response.url);
            } catch (error) {
              fail(error);
            }
          },
          onError: fail,
        },
      ),
    );

  return (
    <>
      <p style={{ margin: '0 0 .75rem' }}>
        The paid plan&apos;s image tools live in the{' '}
        <Link to={studioPath()} onClick={onClose} style={{ color: 'var(--brand)', fontWeight: 600 }}>
          Studio
        </Link>
        : remove a product photo&apos;s background, put it on a studio backdrop and size it for every channel. Try
        them on the free plan, with a watermark.
      </p>
      <p className="u-muted" style={{ margin: '0 0 .75rem' }}>
        {ALWAYS_FREE_NOTE}
      </p>
      {manual ? (
        <p className="plans__note">
          <a
            href={env.supportUrl}
            onClick={(event) => {
              // The support chat when it is running; otherwise the link itself (e.g. offline).
              if (openSupportChat()) event.preventDefault();
            }}
          >
            Contact us
          </a>{' '}
          to manage subscription
        </p>
      ) : (
        isPaidTier(currentTier) && (
          <p className="plans__note">
            <a
              href="#manage-subscription"
              aria-disabled={redirecting || undefined}
              onClick={(event) => {
                // The portal URL is made on demand: each one is a short-lived Stripe session.
                event.preventDefault();
                if (!redirecting) manageSubscription();
              }}
            >
              Manage subscription
            </a>
            {portal.isPending && <Spinner />}
          </p>
        )
      )}
      <div className="plans">
        {plans.map((plan) => (
          <PlanCard
            key={plan.id}
            plan={plan}
            current={plan.id === currentTier}
            redirecting={redirecting}
            pending={pendingPlanId === plan.id}
            purchasable={!manual && isPurchasable(plan)}
            onUpgrade={upgrade}
          />
        ))}
      </div>
    </>
  );
}
