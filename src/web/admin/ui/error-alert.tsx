import { problemText } from '../lib/problem.ts';

/** A failed call's message, announced at once (role="alert"). Renders nothing without an error. */
export function ErrorAlert({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="adm-alert" role="alert">
      {problemText(error)}
    </p>
  );
}
