import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountAnswerSchema,
  accountOrderListSchema,
  accountSchema,
  changePasswordSchema,
  forgotPasswordSchema,
  okSchema,
  registrationResponseSchema,
  registrationSchema,
  resetPasswordSchema,
  resendActivationSchema,
  resetResponseSchema,
  signInSchema,
  tokenBodySchema,
  whoAmISchema,
} from '../../contract/accounts.ts';
import { apiErrorSchema } from '../../contract/errors.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { messages } from '../../contract/messages.ts';
import { deviceMark } from '../http/device-mark.ts';
import { accountGuessLimit } from '../http/rate-limit/account-guesses.ts';
import { perMinute as limit } from '../http/rate-limit/per-minute.ts';
import type { RateLimitRepository } from '../http/rate-limit/rate-limit.repository.ts';
import type { AccountsService } from './accounts.service.ts';
import { notSignedIn, type SignInGuard } from './sign-in-guard.ts';
import { clearSessionCookie, isBrowserRequest, sessionTokenOf, setSessionCookie } from './session.ts';

export const accountsRoutes: FastifyPluginAsyncZod<{
  accounts: AccountsService;
  guard: SignInGuard;
  secureCookies: boolean;
  rateLimitFactor: number;
  counters: RateLimitRepository;
  /** Signs the mark of a browser that signed in before (http/device-mark.ts). */
  deviceSecret: string;
}> = async (app, { accounts, guard, secureCookies, rateLimitFactor, counters, deviceSecret }) => {
  const perMinute = (max: number) => limit(max, rateLimitFactor);
  const device = deviceMark({
    purpose: 'customer-device',
    cookie: 'shop-device',
    secret: deviceSecret,
    secure: secureCookies,
  });
  const usernameOf = (request: { body: unknown }) =>
    (request.body as { username?: string }).username?.trim().toLowerCase();
  // Guesses at one account's password count together from every client (a guesser with many
  // addresses meets the per-client limit late), on each route that checks the password; a browser
  // that signed in to the account before counts on its own (docs/rules.md#limits-on-one-client).
  const perAccount = accountGuessLimit(counters, {
    name: 'customer-sign-in',
    rateLimitFactor,
    emailOf: usernameOf,
    device,
  });
  const { requireCustomer, customerIdOf } = guard;

  app.post(
    '/register',
    { ...perMinute(5), schema: { body: registrationSchema, response: { 200: registrationResponseSchema } } },
    (request) => accounts.register(request.body),
  );
  app.post(
    '/activate',
    {
      ...perMinute(20),
      // A used or unknown link answers {ok: false}; a malformed body the usual error shape.
      schema: { body: tokenBodySchema, response: { 200: okSchema, 400: z.union([okSchema, apiErrorSchema]) } },
    },
    async (request, reply) => {
      const ok = await accounts.activate(request.body.token);
      return reply.status(ok ? 200 : 400).send({ ok });
    },
  );

  /**
   * The answer is the token itself for an API client, which sends it as a bearer token; a browser
   * gets the session as the httpOnly cookie alone and the answer `true`, so no script in the page
   * can read the token (docs/rules.md#accounts-and-sessions).
   */
  const refused = { error: { code: errorCodes.unauthorized, message: messages.login.failed } };
  const signIn = {
    ...perMinute(10),
    preHandler: perAccount,
    schema: {
      body: signInSchema,
      response: { 200: z.union([z.string(), z.literal(true)]), 401: apiErrorSchema, 403: apiErrorSchema },
    },
  };
  app.post('/sign-in', signIn, async (request, reply) => {
    const session = await accounts.signIn(request.body.username, request.body.password);
    if (session === 'refused') return reply.status(401).send(refused);
    // Only the right password gets here, so this tells nothing about other addresses (docs/rules.md#accounts-and-sessions).
    if (session === 'notActivated') {
      return reply.status(403).send({ error: { code: errorCodes.notActivated, message: messages.login.notActivated } });
    }
    setSessionCookie(reply, session.token, secureCookies);
    device.mark(request, reply, usernameOf(request) ?? '');
    return reply.type('application/json').send(JSON.stringify(isBrowserRequest(request) ? true : session.token));
  });
  app.post(
    '/resend-activation',
    {
      ...perMinute(3),
      preHandler: perAccount,
      schema: { body: resendActivationSchema, response: { 200: okSchema, 401: apiErrorSchema } },
    },
    async (request, reply) =>
      (await accounts.resendActivation(request.body.username, request.body.password))
        ? reply.send({ ok: true })
        : reply.status(401).send(refused),
  );

  app.post('/sign-out', { schema: { response: { 200: okSchema } } }, async (request, reply) => {
    const token = sessionTokenOf(request, secureCookies);
    if (token) await accounts.signOut(token);
    clearSessionCookie(reply, secureCookies);
    return reply.send({ ok: true });
  });

  app.get('/is-authenticated', { preHandler: requireCustomer, schema: { response: { 200: z.boolean() } } }, () => true);

  app.get(
    '/who-am-i',
    { preHandler: requireCustomer, schema: { response: { 200: whoAmISchema, 401: apiErrorSchema } } },
    async (request, reply) => (await accounts.whoAmI(customerIdOf(request))) ?? notSignedIn(reply),
  );

  app.get('/account', { preHandler: requireCustomer, schema: { response: { 200: accountAnswerSchema } } }, (request) =>
    accounts.account(customerIdOf(request)),
  );
  app.put(
    '/account',
    { preHandler: requireCustomer, schema: { body: accountSchema, response: { 200: accountAnswerSchema } } },
    async (request) => {
      await accounts.saveAccount(customerIdOf(request), request.body);
      return accounts.account(customerIdOf(request));
    },
  );
  app.post(
    '/account/password',
    {
      ...perMinute(10),
      preHandler: requireCustomer,
      schema: { body: changePasswordSchema, response: { 200: resetResponseSchema } },
    },
    (request) => {
      const { currentPassword, password, confirm } = request.body;
      const token = sessionTokenOf(request, secureCookies) ?? '';
      return accounts.changePassword(customerIdOf(request), token, currentPassword, password, confirm);
    },
  );
  app.get(
    '/account/orders',
    { preHandler: requireCustomer, schema: { response: { 200: accountOrderListSchema } } },
    (request) => accounts.orders(customerIdOf(request)),
  );

  app.post(
    '/forgot-password',
    { ...perMinute(5), schema: { body: forgotPasswordSchema, response: { 200: okSchema } } },
    async (request) => {
      accounts.forgotPassword(request.body.email);
      return { ok: true };
    },
  );
  app.post(
    '/reset-password',
    { ...perMinute(10), schema: { body: resetPasswordSchema, response: { 200: resetResponseSchema } } },
    (request) => accounts.resetPassword(request.body.token, request.body.password, request.body.confirm),
  );
};
