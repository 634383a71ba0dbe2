import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { orderNoteSchema } from '../../../../contract/admin/orders.ts';
import { TextAreaField } from '../../ui/field.tsx';

type Note = z.input<typeof orderNoteSchema>;

/** A note staff keep on the order: it joins the timeline, and the customer never sees it. */
export function NoteForm(props: { onSubmit: (note: Note) => Promise<boolean> }) {
  const form = useForm<Note>({ resolver: zodResolver(orderNoteSchema), defaultValues: { note: '' } });
  const { errors, isSubmitting } = form.formState;
  return (
    <form
      noValidate
      aria-label="Add a note"
      className="adm-form"
      onSubmit={form.handleSubmit(async (note) => {
        if (await props.onSubmit(note)) form.reset({ note: '' });
      })}
    >
      <TextAreaField
        id="order-note"
        label="Note for staff"
        hint="Kept on the order for the shop's staff; never shown to the customer."
        rows={3}
        maxLength={2_000}
        error={errors.note?.message}
        {...form.register('note')}
      />
      <button type="submit" className="button adm-small" disabled={isSubmitting}>
        Add note
      </button>
    </form>
  );
}
