import { describe, expect, it } from 'vitest';
import { returnAuthorisedEmail, returnReceivedEmail } from './return-emails.ts';

const facts = {
  email: 'meera@example.com',
  firstname: 'Meera',
  orderNumber: 100088,
  linkVersion: 1,
  raNumber: 'RA-100088-1',
  items: ['1 × Punjabi Dhol (Large)'],
};

describe('the return e-mails', () => {
  it('give the refund’s last day as a British shopper writes a date, on the UK day', () => {
    // December is on GMT: 23:30 UTC on the 11th is still the 11th in the UK.
    const message = returnReceivedEmail(facts, '2026-12-11T23:30:00.000Z');
    const text = JSON.stringify(message.template);
    expect(text).toContain('by 11 December 2026 at the latest');
    expect(text).not.toContain('2026-12-11');
  });

  it('say who pays the postage back: the shopper for a change of mind, the shop for faulty, damaged or wrong goods', () => {
    const address = 'Raag Instruments, 1 High Street, Leicester';
    const changedMind = JSON.stringify(returnAuthorisedEmail(facts, address, 'changed_mind').template);
    expect(changedMind).toContain('You pay the postage to send them back');
    expect(changedMind).not.toContain('we refund your postage');
    for (const reason of ['faulty', 'damaged_in_transit', 'wrong_item'] as const) {
      const ours = JSON.stringify(returnAuthorisedEmail(facts, address, reason).template);
      expect(ours, reason).toContain('we refund your postage');
      expect(ours, reason).not.toContain('You pay the postage');
    }
  });
});
