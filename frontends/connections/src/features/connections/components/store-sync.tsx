import {
  Button,
  Dialog,
  ErrorBanner,
  ProgressBar,
  serverMessage,
  UNKNOWN_ERROR_MESSAGE,
  useStoreFormat,
  type SyncProgressJson,
} from '@uplift/platform';
import { formatWhen } from '../lib/format';

/** The parts of a connected store's card that are the same for every platform, named by it ("Shopify"). */

/** The import's progress; its own counts are what this sync brought in, never the store's size (shown above it). */
export function SyncProgress({
  platform,
  phaseLabels,
  sync,
}: {
  platform: string;
  phaseLabels: Record<string, string>;
  sync: SyncProgressJson | undefined;
}) {
  const percent = Math.max(0, Math.min(100, sync?.percent ?? 0));
  const phase = phaseLabels[sync?.phase ?? ''] ?? 'Importing';
  return (
    <div>
      <p>
        <strong>Importing your store&apos;s data</strong> · {phase} ({percent}%)
      </p>
      <ProgressBar label={`${platform} import progress`} percent={percent} />
      <p className="u-muted">Your numbers stay as they are while it runs. This page updates by itself.</p>
    </div>
  );
}

export function SyncDone({ sync }: { sync: SyncProgressJson | undefined }) {
  const lastSynced = formatWhen(sync?.lastSyncedAt, useStoreFormat());
  return (
    <div>
      <p>{lastSynced ? `Last synced ${lastSynced}` : 'Not synced yet.'}</p>
    </div>
  );
}

export function SyncFailed({
  platform,
  sync,
  retrying,
  onRetry,
}: {
  platform: string;
  sync: SyncProgressJson | undefined;
  retrying: boolean;
  onRetry: () => void;
}) {
  const lastSynced = formatWhen(sync?.lastSyncedAt, useStoreFormat());
  return (
    <div>
      <ErrorBanner message={sync?.error || `The last sync with ${platform} failed.`} />
      {lastSynced && <p>Last synced {lastSynced}</p>}
      <p>
        <Button loading={retrying} onClick={onRetry}>
          Try again
        </Button>
      </p>
    </div>
  );
}

/** What a platform's disconnect hook gives (useDisconnectShopify, useDisconnectWooCommerce). */
export interface DisconnectMutation {
  isError: boolean;
  isPending: boolean;
  error: unknown;
  reset(): void;
  mutate(categoryId: string, options: { onSuccess: () => void }): void;
}

export function DisconnectDialog({
  platform,
  open,
  onClose,
  categoryId,
  storeName,
  disconnect,
  description,
}: {
  platform: string;
  open: boolean;
  onClose: () => void;
  categoryId: string;
  storeName: string;
  disconnect: DisconnectMutation;
  /** What disconnecting does, when not a store's sync stopping (Google Analytics 4's access revoked). */
  description?: string;
}) {
  const close = () => {
    disconnect.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title={`Disconnect ${platform}?`}
      description={description ?? `Uplift stops syncing ${storeName}. The numbers already imported stay.`}
    >
      <ErrorBanner message={disconnect.isError && serverMessage(disconnect.error, UNKNOWN_ERROR_MESSAGE)} />
      <div className="u-dialog__actions">
        <Button variant="secondary" onClick={close}>
          Cancel
        </Button>
        <Button loading={disconnect.isPending} onClick={() => disconnect.mutate(categoryId, { onSuccess: onClose })}>
          Disconnect
        </Button>
      </div>
    </Dialog>
  );
}
