import type { UserJson } from '@uplift/platform';

/** On-behalf mode (spec section 6): the user views a category other than their own original one. */
export function isActingOnBehalf(user: Pick<UserJson, 'categoryId' | 'originalCategoryId'> | undefined): boolean {
  return Boolean(user?.categoryId && user.originalCategoryId && user.categoryId !== user.originalCategoryId);
}
