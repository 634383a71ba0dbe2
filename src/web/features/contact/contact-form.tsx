import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { contactRequestSchema, type ContactRequest } from '../../../contract/contact.ts';

/**
 * The enquiry form: browser validation off (novalidate), each field's message shown once it has
 * been touched and is invalid, every field marked touched on SEND. Sending goes to POST /api/contact.
 */
/** `onSend` answers whether the message went; the form keeps what was typed when it did not. */
export function ContactForm(props: { onSend: (request: ContactRequest) => Promise<boolean> }) {
  const form = useForm<ContactRequest>({
    resolver: zodResolver(contactRequestSchema),
    mode: 'onTouched',
    defaultValues: { email: '', name: '', phone: '', message: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const fields = [
    { name: 'email', label: 'Email Address', type: 'email', autoComplete: 'email' },
    { name: 'name', label: 'Name', type: 'text', autoComplete: 'name' },
    { name: 'phone', label: 'Contact Number', type: 'tel', autoComplete: 'tel' },
  ] as const;

  return (
    <form
      noValidate
      aria-label="Send us a message"
      onSubmit={form.handleSubmit(async (values) => {
        window.scrollTo({ top: 0 });
        if (await props.onSend(values)) form.reset();
      })}
    >
      {fields.map((field) => (
        <div className="field" key={field.name} style={{ marginBottom: '0.75rem' }}>
          <label htmlFor={`contact-${field.name}`}>{field.label}</label>
          <input
            id={`contact-${field.name}`}
            className="input"
            type={field.type}
            autoComplete={field.autoComplete}
            aria-invalid={errors[field.name] ? true : undefined}
            aria-describedby={errors[field.name] ? `contact-${field.name}-error` : undefined}
            {...form.register(field.name)}
          />
          {errors[field.name] && (
            <p id={`contact-${field.name}-error`} className="field-error">
              {errors[field.name]?.message}
            </p>
          )}
        </div>
      ))}
      <div className="field" style={{ marginBottom: '0.75rem' }}>
        <label htmlFor="contact-message">Message</label>
        <textarea
          id="contact-message"
          className="input"
          rows={6}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? 'contact-message-error' : undefined}
          {...form.register('message')}
        />
        {errors.message && (
          <p id="contact-message-error" className="field-error">
            {errors.message.message}
          </p>
        )}
      </div>
      <button type="submit" className="button" disabled={isSubmitting}>
        SEND
      </button>
    </form>
  );
}
