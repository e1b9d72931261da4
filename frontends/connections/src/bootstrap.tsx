import { renderStandalone } from '@uplift/platform/standalone';
import App from './app/routes';

// Standalone mode, for working on this remote alone; inside the shell only ./App is used.
renderStandalone(<App />);
