import type { ComponentProps, ReactNode } from 'react';

type Labelled = { id: string; label: string; error?: string | undefined; hint?: ReactNode };

function describedBy(id: string, error: string | undefined, hint: ReactNode) {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return ids || undefined;
}

function Help({ id, error, hint }: Omit<Labelled, 'label'>) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="adm-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </>
  );
}

/** A labelled input with its hint and its message (react-hook-form's register spreads into it). */
export function Field({ id, label, error, hint, ...input }: Labelled & ComponentProps<'input'>) {
  return (
    <div className="field adm-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...input}
      />
      <Help id={id} error={error} hint={hint} />
    </div>
  );
}

export function SelectField({ id, label, error, hint, children, ...select }: Labelled & ComponentProps<'select'>) {
  return (
    <div className="field adm-field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...select}
      >
        {children}
      </select>
      <Help id={id} error={error} hint={hint} />
    </div>
  );
}

export function TextAreaField({ id, label, error, hint, ...area }: Labelled & ComponentProps<'textarea'>) {
  return (
    <div className="field adm-field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...area}
      />
      <Help id={id} error={error} hint={hint} />
    </div>
  );
}
