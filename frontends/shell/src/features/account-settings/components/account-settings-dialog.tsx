import { Dialog } from '@uplift/platform';
import { RemoteModule } from '../../../lib/remote';

/** The Account Settings dialog; its content belongs to the account remote. */
export function AccountSettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Account Settings">
      <RemoteModule remote="account" module="./AccountSettings" />
    </Dialog>
  );
}
