import { loadConfig } from '../../src/server/config.ts';
import { mailBrandOf } from '../../src/server/mail/mail-queue.ts';
import type { MailBrand } from '../../src/server/mail/templates/templates.ts';

/** The default shop as its e-mails show it, its order links signed with a test secret. */
export function testMailBrand(overrides: { publicUrl?: string } = {}): MailBrand {
  const config = loadConfig({});
  return mailBrandOf({ ...config, ...overrides, cookieSecret: 'test-secret-for-order-links' });
}
