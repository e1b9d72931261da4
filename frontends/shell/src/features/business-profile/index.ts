export { BusinessProfileDialog } from './components/business-profile-dialog';
export { useSiteUrlFromAddress } from './lib/site-url-from-address';
