import type { InputHTMLAttributes } from 'react';

/** A labelled input with its message, shown once the field is touched and invalid. */
export function FormField(
  props: { id: string; label: string; error?: string | undefined } & InputHTMLAttributes<HTMLInputElement>,
) {
  const { id, label, error, ...input } = props;
  return (
    <div className="field" style={{ marginBottom: '0.75rem' }}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...input}
      />
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
