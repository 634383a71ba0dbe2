import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  newStaffAnswerSchema,
  newStaffSchema,
  recoveryCodesRenewSchema,
  recoveryCodesSchema,
  staffForgotPasswordSchema,
  staffChangeSchema,
  staffIdParamsSchema,
  staffListSchema,
  staffMemberSchema,
  staffMeSchema,
  staffSetPasswordSchema,
  staffSignInSchema,
  totpCodeSchema,
  totpDisableSchema,
  totpSetupSchema,
} from '../../contract/admin/staff.ts';
import { okSchema } from '../../contract/accounts.ts';
import { apiErrorSchema } from '../../contract/errors.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { perMinute as limit } from '../http/rate-limit/per-minute.ts';
import { accountGuessLimit } from '../http/rate-limit/account-guesses.ts';
import { keyedLimit } from '../http/rate-limit/keyed-limit.ts';
import type { RateLimitRepository } from '../http/rate-limit/rate-limit.repository.ts';
import { clearStaffCookie, setStaffCookie, staffTokenOf, type StaffGuard } from './staff-guard.ts';
import { staffDeviceMark } from './staff-device.ts';
import type { StaffService } from './staff.service.ts';

/** Staff accounts and sessions under /api/admin (docs/back-office.md#staff-accounts). */
export const staffAdminRoutes: FastifyPluginAsyncZod<{
  staff: StaffService;
  guard: StaffGuard;
  secureCookies: boolean;
  rateLimitFactor: number;
  counters: RateLimitRepository;
  /** Signs the mark of a browser that signed in before (staff-device.ts). */
  deviceSecret: string;
}> = async (app, { staff, guard, secureCookies, rateLimitFactor, counters, deviceSecret }) => {
  const perMinute = (max: number) => limit(max, rateLimitFactor);
  const { staffOf } = guard;
  const device = staffDeviceMark({ secret: deviceSecret, secure: secureCookies });
  const emailOf = (request: { body: unknown }) => (request.body as { email?: string }).email?.trim().toLowerCase();
  // One account's guesses at a password or a code count together from every client; a browser
  // that signed in to the account before counts on its own.
  const perAccount = accountGuessLimit(counters, { name: 'staff-sign-in', rateLimitFactor, emailOf, device });

  app.post(
    '/sign-in',
    {
      config: perMinute(10).config,
      preHandler: perAccount,
      schema: { body: staffSignInSchema, response: { 200: okSchema, 401: apiErrorSchema } },
    },
    async (request, reply) => {
      const result = await staff.signIn(request.body.email, request.body.password, request.body.code);
      if (result.outcome === 'failed') {
        return reply.status(401).send({
          error: {
            code: errorCodes.unauthorized,
            message:
              'Sign-in failed. Please check your e-mail address, password and, if you use two-factor sign-in, the code from your app.',
          },
        });
      }
      setStaffCookie(reply, result.token, secureCookies);
      device.mark(request, reply, emailOf(request) ?? '');
      return { ok: true };
    },
  );

  // Answers before the address is looked up (staff.service.ts forgotPassword), so neither the
  // answer nor its time says whether the address has an account.
  app.post(
    '/forgot-password',
    {
      config: perMinute(5).config,
      schema: { body: staffForgotPasswordSchema, response: { 200: okSchema } },
    },
    async (request) => {
      staff.forgotPassword(request.body.email);
      return { ok: true };
    },
  );

  app.post(
    '/set-password',
    {
      config: perMinute(10).config,
      schema: { body: staffSetPasswordSchema, response: { 200: okSchema } },
    },
    async (request) => {
      await staff.setPassword(request.body.token, request.body.password);
      return { ok: true };
    },
  );

  app.post('/sign-out', { schema: { response: { 200: okSchema } } }, async (request, reply) => {
    const token = staffTokenOf(request, secureCookies);
    if (token) await staff.signOut(token);
    clearStaffCookie(reply, secureCookies);
    return { ok: true };
  });

  app.post('/sign-out-everywhere', { schema: { response: { 200: okSchema } } }, async (request, reply) => {
    await staff.signOutEverywhere(staffOf(request));
    clearStaffCookie(reply, secureCookies);
    return { ok: true };
  });

  app.get('/me', { schema: { response: { 200: staffMeSchema } } }, (request) => staff.me(staffOf(request)));

  app.post('/me/totp/setup', { schema: { response: { 200: totpSetupSchema } } }, (request) =>
    staff.setUpTotp(staffOf(request)),
  );
  app.post(
    '/me/totp/enable',
    { ...perMinute(10), schema: { body: totpCodeSchema, response: { 200: recoveryCodesSchema } } },
    (request) => staff.enableTotp(staffOf(request), request.body.code),
  );
  // The password is asked again here, so guesses at it are limited per member, from any client.
  const perMember = keyedLimit(counters, {
    name: 'staff-password-check',
    max: Math.max(1, Math.round(10 * rateLimitFactor)),
    windowMs: 5 * 60_000,
    keyOf: (request) => String(staffOf(request).id),
  });
  app.post(
    '/me/totp/disable',
    { ...perMinute(10), preHandler: perMember, schema: { body: totpDisableSchema, response: { 200: okSchema } } },
    async (request) => {
      await staff.disableTotp(staffOf(request), request.body.password);
      return { ok: true };
    },
  );

  app.post(
    '/me/recovery-codes',
    {
      ...perMinute(10),
      preHandler: perMember,
      schema: { body: recoveryCodesRenewSchema, response: { 200: recoveryCodesSchema } },
    },
    (request) => staff.renewRecoveryCodes(staffOf(request), request.body.password),
  );

  app.get('/staff', { schema: { response: { 200: staffListSchema } } }, () => staff.list());
  app.post('/staff', { schema: { body: newStaffSchema, response: { 200: newStaffAnswerSchema } } }, (request) =>
    staff.create(request.body, staffOf(request)),
  );
  app.patch(
    '/staff/:id',
    {
      schema: { params: staffIdParamsSchema, body: staffChangeSchema, response: { 200: staffMemberSchema } },
    },
    (request) => staff.change(request.params.id, request.body, staffOf(request)),
  );
  app.post(
    '/staff/:id/set-password-link',
    {
      schema: { params: staffIdParamsSchema, response: { 200: z.object({ setPasswordUrl: z.string() }) } },
    },
    async (request) => ({ setPasswordUrl: await staff.newLink(request.params.id, staffOf(request)) }),
  );
  app.post(
    '/staff/:id/reset-two-factor',
    {
      schema: { params: staffIdParamsSchema, response: { 200: staffMemberSchema } },
    },
    (request) => staff.resetTwoFactor(request.params.id, staffOf(request)),
  );
};
