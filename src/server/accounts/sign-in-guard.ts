import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { errorCodes } from '../../contract/error-codes.ts';
import type { AccountsService } from './accounts.service.ts';
import { sessionTokenOf } from './session.ts';
import { answersWith } from '../http/hook-answers.ts';

/**
 * Who is signed in, for every route that asks (docs/rules.md#accounts-and-sessions): `requireCustomer` as a route's
 * preHandler answers 401 without a live session, and `customerIdOf` then gives its customer;
 * `optionalCustomerOf` is for routes that serve guests too (a commit links a signed-in shopper's
 * order to their account).
 */
export function createSignInGuard(accounts: Pick<AccountsService, 'customerFor'>, secureCookies: boolean) {
  const customers = new WeakMap<FastifyRequest, number>();

  async function optionalCustomerOf(request: FastifyRequest): Promise<number | undefined> {
    const token = sessionTokenOf(request, secureCookies);
    return token ? accounts.customerFor(token) : undefined;
  }

  const requireCustomer: preHandlerAsyncHookHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const customerId = await optionalCustomerOf(request);
    if (customerId === undefined) return notSignedIn(reply);
    customers.set(request, customerId);
  };
  answersWith(requireCustomer, [401]);

  /** The signed-in customer of a request that passed `requireCustomer`. */
  function customerIdOf(request: FastifyRequest): number {
    const customerId = customers.get(request);
    if (customerId === undefined) throw new Error(`${request.url} has no requireCustomer preHandler`);
    return customerId;
  }

  return { requireCustomer, customerIdOf, optionalCustomerOf };
}

export type SignInGuard = ReturnType<typeof createSignInGuard>;

export function notSignedIn(reply: FastifyReply): FastifyReply {
  return reply.status(401).send({ error: { code: errorCodes.unauthorized, message: 'Please sign in.' } });
}
