import { useSession } from '../auth/session';
import { useUser } from './get-user';

/**
 * The signed-in user's current category (business): the user record carries it,
 * and on-behalf mode changes it, so it is read from there rather than kept twice.
 */
export function useCategoryId(): { categoryId: string | undefined; isPending: boolean } {
  const session = useSession();
  const uid = session.status === 'signedIn' ? session.user.uid : undefined;
  const user = useUser(uid);
  return { categoryId: user.data?.categoryId || undefined, isPending: Boolean(uid) && user.isPending };
}
