import type { QueryClient } from '@tanstack/react-query';
import { requestJson } from '../../../lib/api.ts';
import {
  accountQueryKeys,
  signedInMark,
  signInRefusalOf,
  signInWithPassword,
  type SignInRefusal,
} from '../../../lib/account.ts';

/**
 * Signs in: the session is the cookie, the spec's storage key gets a mark, and the top bar asks
 * who-am-i again.
 * Answers why it was refused, or undefined when signed in.
 */
export async function signIn(
  email: string,
  password: string,
  queryClient: QueryClient,
): Promise<SignInRefusal | undefined> {
  try {
    await signInWithPassword(email, password);
    await queryClient.invalidateQueries({ queryKey: accountQueryKeys.whoAmI });
    return undefined;
  } catch (error) {
    return signInRefusalOf(error, email, password);
  }
}

export async function signOut(queryClient: QueryClient): Promise<void> {
  await requestJson('/api/sign-out', { method: 'POST', body: '{}' }).catch(() => undefined);
  signedInMark.set(false);
  await queryClient.invalidateQueries({ queryKey: accountQueryKeys.whoAmI });
}
