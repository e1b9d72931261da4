import { AccountSettings } from '../features/account-settings/components/account-settings';

/** What the shell's Account Settings dialog renders. */
export default AccountSettings;
