export { AuthProvider, useAuthActions } from './components/auth-provider';
export { AuthControls } from './components/auth-controls';
export { RequireAuth, RequireUplifter } from './components/guards';
export { LogoutRoute } from './components/logout-route';
