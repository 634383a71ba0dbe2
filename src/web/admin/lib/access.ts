import { useQuery } from '@tanstack/react-query';
import { mayCall } from '../../../contract/admin/permissions.ts';
import { staffMeQueryOptions } from './staff-session.ts';

/**
 * What the signed-in member may call, by the server's own table sent with GET /me
 * (src/server/staff/admin-access.ts): pages, links and buttons ask it by the route they call
 * (`POST /orders/:orderNumber/dispatch`), so the back office hides what the server would refuse
 * and never keeps a copy of who may do what. Until the member is known, nothing is allowed.
 */
export function useMayCall(): (route: string) => boolean {
  const me = useQuery(staffMeQueryOptions());
  const data = me.data;
  return (route) => (data ? mayCall(data.access, data.permissions, route) : false);
}
