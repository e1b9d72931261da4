export { BusinessProfileDialog } from './components/business-profile-dialog';
