import { useState } from 'react';

/** A single-use link, shown once, with a button to copy it. */
export function SetPasswordLink({ email, url, emailed = false }: { email: string; url: string; emailed?: boolean }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="adm-done" role="status">
      <p>
        {emailed
          ? `We have e-mailed ${email} this link; you may pass it on yourself too. It works once, for 72 hours, and is not shown again:`
          : `Send this link to ${email}; it works once, for 72 hours, and is not shown again:`}
      </p>
      <p className="adm-code" data-testid="set-password-link">
        {url}
      </p>
      <button
        type="button"
        className="button adm-small"
        onClick={() => void navigator.clipboard.writeText(url).then(() => setCopied(true))}
      >
        {copied ? 'Copied' : 'Copy the link'}
      </button>
    </div>
  );
}
