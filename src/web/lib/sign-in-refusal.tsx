import { useState } from 'react';
import { messages } from '../../contract/messages.ts';
import { limitMessage } from './api.ts';
import { resendActivation, type SignInRefusal } from './account.ts';

/**
 * A refused sign-in, worded for the shopper (the login page and checkout): for an account not yet
 * activated, a button that sends a new activation link.
 */
export function SignInRefusalMessage({ refusal }: { refusal: SignInRefusal }) {
  const [resend, setResend] = useState<'idle' | 'sending' | 'sent' | { problem: string }>('idle');
  if (refusal.kind !== 'notActivated') {
    return (
      <p className="field-error" role="alert">
        {refusal.kind === 'limited' ? refusal.message : messages.login.failed}
      </p>
    );
  }
  const send = async () => {
    setResend('sending');
    try {
      await resendActivation(refusal.email, refusal.password);
      setResend('sent');
    } catch (error) {
      setResend({ problem: limitMessage(error) ?? messages.login.failed });
    }
  };
  return (
    <div>
      <p className="field-error" role="alert">
        {messages.login.notActivated}
      </p>
      {resend === 'sent' ? (
        <p role="status">{messages.login.resent}</p>
      ) : (
        <p>
          <button
            type="button"
            className="button button-secondary"
            disabled={resend === 'sending'}
            onClick={() => void send()}
          >
            {messages.login.resend}
          </button>
        </p>
      )}
      {typeof resend === 'object' && (
        <p className="field-error" role="alert">
          {resend.problem}
        </p>
      )}
    </div>
  );
}
