import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { LOADING_TEXT } from '@uplift/platform';
import { useAuthActions } from './auth-provider';

/** /logout: signs out, then lands on / signed out. */
export function LogoutRoute() {
  const { signOut } = useAuthActions();
  const navigate = useNavigate();
  useEffect(() => {
    let active = true;
    signOut()
      .catch((error: unknown) => console.error('Sign-out failed', error))
      .finally(() => {
        if (active) navigate('/', { replace: true });
      });
    return () => {
      active = false;
    };
  }, [signOut, navigate]);
  return <p>{LOADING_TEXT}</p>;
}
