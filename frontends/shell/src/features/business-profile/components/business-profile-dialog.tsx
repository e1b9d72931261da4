import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BUSINESS_PROFILE_SAVE_ERROR, Button, Dialog, ErrorBanner, Spinner, Switch, TextArea, useCategoryId, useCategoryLabel, useContentGenerationParams, useEmailPreferences, canonicalTimeZone, timeZoneChoices } from '@uplift/platform';
import { TextField } from '@uplift/platform/text-field';
import { PROFILE_FIELDS, profileFieldErrors, type ProfileField } from '../lib/field-errors';
import { saveBusinessProfile, type BusinessProfileValues } from '../lib/save-business-profile';

export const BUSINESS_PROFILE_TITLE = 'Business profile';
const DESCRIPTION = 'Your business profile is used to personalize ideas and insights.';
const SUMMARY_PLACEHOLDER =
  'This section will populate automatically once a valid business website has been entered above and saved.';

export interface BusinessProfileDialogProps {
  open: boolean;
  onClose: () => void;
  /** A website to fill in instead of the saved one (from `?siteUrl=` when it could not be saved). */
  prefillWebsite?: string;
}

/** The Business profile dialog (spec section 2, dialog 4). */
export function BusinessProfileDialog({ open, onClose, prefillWebsite }: BusinessProfileDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title={BUSINESS_PROFILE_TITLE} description={DESCRIPTION}>
      {/* Mounted only while open, so each opening starts from the saved values. */}
      {open && <BusinessProfileContent onClose={onClose} prefillWebsite={prefillWebsite} />}
    </Dialog>
  );
}

function BusinessProfileContent({ onClose, prefillWebsite }: { onClose: () => void; prefillWebsite?: string }) {
  const { categoryId, isPending: userPending } = useCategoryId();
  const label = useCategoryLabel(categoryId);
  const params = useContentGenerationParams(categoryId);
  const preferences = useEmailPreferences(categoryId);

  // A read that failed still lets the owner fill the profile in from blank.
  const loading = userPending || (Boolean(categoryId) && (label.isPending || params.isPending || preferences.isPending));
  if (loading) return <Spinner label="Loading business profile" />;
  if (!categoryId) {
    return (
      <ErrorBanner message="Your account is still being set up. Please try again in a moment." />
    );
  }

  return (
    <BusinessProfileForm
      categoryId={categoryId}
      initial={{
        name: label.data?.name ?? '',
        website: prefillWebsite || params.data?.siteUrl || '',
        weeklyWebsiteReview: !params.data?.disableWeeklyEmail,
        dailyBusinessReport: !preferences.data?.disableBusinessReport,
        timeZone: canonicalTimeZone(params.data?.timeZone ?? ''),
        competitors: padCompetitors(params.data?.competitorUrls ?? []),
      }}
      savedCompetitors={params.data?.competitorUrls ?? []}
      savedSiteUrl={params.data?.siteUrl}
      summary={params.data?.additionalInfo ?? ''}
      onClose={onClose}
    />
  );
}

/** Three boxes, the saved competitors first. */
function padCompetitors(saved: string[]): string[] {
  return [...saved, '', '', ''].slice(0, MAX_COMPETITORS);
}

const MAX_COMPETITORS = 3;

interface FormProps {
  categoryId: string;
  initial: BusinessProfileValues;
  savedSiteUrl: string | undefined;
  savedCompetitors: string[];
  summary: string;
  onClose: () => void;
}

function BusinessProfileForm({ categoryId, initial, savedSiteUrl, savedCompetitors, summary, onClose }: FormProps) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState(initial);
  const formRef = useRef<HTMLFormElement>(null);
  const save = useMutation({
    mutationFn: () =>
      saveBusinessProfile(queryClient, categoryId, values, savedSiteUrl, initial.timeZone, savedCompetitors),
    onSuccess: onClose,
    // The dialog shows its own message; no toast on top of it.
    meta: { toast: false },
  });
  // A refused field's message goes under it until that field is edited; a
  // failure that names no field is the spec's message, beside the buttons.
  const [dismissed, setDismissed] = useState<ReadonlySet<ProfileField>>(new Set());
  const refused = save.isError ? profileFieldErrors(save.error) : {};
  const errors = Object.fromEntries(
    Object.entries(refused).filter(([field]) => !dismissed.has(field as ProfileField)),
  ) as typeof refused;
  const generalError = save.isError && Object.keys(refused).length === 0 && BUSINESS_PROFILE_SAVE_ERROR;
  const set = <K extends keyof BusinessProfileValues>(key: K, value: BusinessProfileValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    if (key in refused) setDismissed((current) => new Set(current).add(key as ProfileField));
  };

  // A dialog scrolled down to Save would hide a message near its top: the
  // first refused field (or the message) is brought into view and focused.
  const failure = save.error;
  useEffect(() => {
    if (!failure) return;
    const form = formRef.current;
    const field = PROFILE_FIELDS.find((name) => name in profileFieldErrors(failure));
    const target = field
      ? form?.querySelector<HTMLElement>(`[data-profile-field="${field}"]`)
      : form?.querySelector<HTMLElement>('[data-profile-error]');
    if (!target) return;
    // Optional: not every DOM has it (jsdom).
    target.scrollIntoView?.({ block: 'center' });
    target.focus({ preventScroll: true });
  }, [failure]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // Enter in the name (or website) field lands here too.
    event.preventDefault();
    if (save.isPending) return;
    setDismissed(new Set());
    save.mutate();
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate>
      <TextField
        label="Name"
        name="name"
        data-profile-field="name"
        placeholder="Enter business name"
        value={values.name}
        error={errors.name}
        onChange={(event) => set('name', event.target.value)}
      />
      <TextField
        label="Website"
        name="website"
        data-profile-field="website"
        type="url"
        inputMode="url"
        placeholder="Enter your website URL"
        value={values.website}
        error={errors.website}
        onChange={(event) => set('website', event.target.value)}
      />
      <label className="u-field">
        Summary
        <TextArea readOnly name="summary" placeholder={SUMMARY_PLACEHOLDER} value={summary} />
      </label>
      <div className="u-field">
        <label htmlFor="business-profile-time-zone">Time zone</label>
        <select
          id="business-profile-time-zone"
          className="u-input"
          name="timeZone"
          data-profile-field="timeZone"
          aria-invalid={errors.timeZone ? true : undefined}
          aria-describedby={errors.timeZone ? 'business-profile-time-zone-hint business-profile-time-zone-error' : 'business-profile-time-zone-hint'}
          value={values.timeZone}
          onChange={(event) => set('timeZone', event.target.value)}
        >
          {!values.timeZone && <option value="">Not set (UTC)</option>}
          {timeZoneChoices(values.timeZone).map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll('_', ' ')}
            </option>
          ))}
        </select>
        <span id="business-profile-time-zone-hint" className="u-switch__description">
          Your weekly review and daily report arrive in the morning in this time zone.
        </span>
        {errors.timeZone && (
          <span id="business-profile-time-zone-error" role="alert" className="u-field__note u-field__error">
            {errors.timeZone}
          </span>
        )}
      </div>
      <fieldset className="u-field" aria-describedby="business-profile-competitors-hint">
        <legend>Competitors</legend>
        {values.competitors.map((competitor, index) => (
          <input
            // The boxes never reorder: the index is their identity.
            key={index}
            className="u-input"
            name={`competitor${index + 1}`}
            data-profile-field={index === 0 ? 'competitors' : undefined}
            aria-invalid={errors.competitors ? true : undefined}
            aria-describedby={errors.competitors ? 'business-profile-competitors-error' : undefined}
            type="url"
            inputMode="url"
            aria-label={`Competitor ${index + 1}`}
            placeholder="Enter a competitor's website URL"
            value={competitor}
            onChange={(event) =>
              set(
                'competitors',
                values.competitors.map((current, at) => (at === index ? event.target.value : current)),
              )
            }
          />
        ))}
        <span id="business-profile-competitors-hint" className="u-switch__description">
          Optional: up to three competitors, reviewed like your website and shown beside it on Home.
        </span>
        {errors.competitors && (
          <span id="business-profile-competitors-error" role="alert" className="u-field__note u-field__error">
            {errors.competitors}
          </span>
        )}
      </fieldset>
      <Switch
        label="Weekly Website Review"
        description="Receive a weekly email with an updated website review"
        checked={values.weeklyWebsiteReview}
        onChange={(checked) => set('weeklyWebsiteReview', checked)}
      />
      <Switch
        label="Daily Business Report"
        description="Receive a daily email with an updated business report"
        checked={values.dailyBusinessReport}
        onChange={(checked) => set('dailyBusinessReport', checked)}
      />
      {generalError && (
        <div data-profile-error tabIndex={-1}>
          <ErrorBanner message={generalError} />
        </div>
      )}
      <div className="u-dialog__actions">
        <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending}>
          Save
        </Button>
      </div>
    </form>
  );
}
