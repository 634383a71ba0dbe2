import { useQuery } from '@tanstack/react-query';
import { requestJson } from './api.ts';
import { storageKeys } from './basket/basket-store.ts';

export interface SignedInUser {
  firstname: string;
  lastname: string;
}

/** "RAVI shankar": first name in upper case, last name in lower case (spec section 2.2). */
export function displayName(user: SignedInUser): string {
  return `${user.firstname.toUpperCase()} ${user.lastname.toLowerCase()}`;
}

/** The signed-in customer, asked of the server only when a sign-in token is stored. */
export function useSignedInUser() {
  const token = typeof localStorage === 'undefined' ? null : localStorage.getItem(storageKeys.authToken);
  return useQuery({
    queryKey: ['who-am-i', token],
    enabled: Boolean(token),
    retry: false,
    queryFn: ({ signal }) =>
      requestJson<SignedInUser>('/api/who-am-i', { signal, headers: { authorization: `Bearer ${token}` } }),
  });
}
