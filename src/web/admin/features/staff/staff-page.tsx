import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  newStaffSchema,
  staffRoleAbilities,
  staffRoles,
  type NewStaff,
  type StaffMember,
  type StaffRole,
} from '../../../../contract/admin/staff.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { formatDate, humanise } from '../../lib/format.ts';
import { DataTable, dataColumns } from '../../ui/data-table.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field, SelectField } from '../../ui/field.tsx';
import { addStaff, changeStaff, newSetPasswordLink, resetTwoFactor, staffListQueryOptions } from './api/staff.ts';
import { staffMeQueryOptions } from '../../lib/staff-session.ts';
import { SetPasswordLink } from './set-password-link.tsx';

/** Staff accounts (owners only): add, change role, disable or enable, and hand out a new link. */
export default function StaffPage() {
  const staff = useQuery(staffListQueryOptions());
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  const me = useQuery(staffMeQueryOptions());
  const [link, setLink] = useState<{ email: string; url: string; emailed?: boolean } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // A role change or a disabling waits for a second yes that says what it will mean for the member.
  const [pending, setPending] = useState<PendingChange | null>(null);

  async function run(task: () => Promise<void>) {
    setProblem(null);
    setDone(null);
    try {
      await task();
    } catch (error) {
      setProblem(error);
    }
  }

  return (
    <AdminPage title="Staff">
      <ErrorAlert error={problem ?? staff.error} />
      {done && (
        <p className="adm-done" role="status">
          {done}
        </p>
      )}
      {link && <SetPasswordLink email={link.email} url={link.url} emailed={link.emailed} />}
      {pending && (
        <ConfirmChange
          pending={pending}
          onYes={() => {
            setPending(null);
            void run(() => changeStaff(pending.member.id, pending.change, queryClient));
          }}
          onNo={() => setPending(null)}
        />
      )}
      {staff.data && (
        <StaffTable
          staff={staff.data}
          myId={me.data?.id}
          onResetTwoFactor={(member) =>
            run(async () => {
              await resetTwoFactor(member.id, queryClient);
              setDone(`Two-factor sign-in is off for ${member.email}, and they have been signed out everywhere.`);
            })
          }
          onRole={async (member, role) => setPending({ member, change: { role } })}
          onDisabled={async (member, disabled) =>
            disabled
              ? setPending({ member, change: { disabled } })
              : run(() => changeStaff(member.id, { disabled }, queryClient))
          }
          onLink={(member) =>
            run(async () => {
              const { setPasswordUrl } = await newSetPasswordLink(member.id);
              setLink({ email: member.email, url: setPasswordUrl });
            })
          }
        />
      )}
      <h2>Add a staff member</h2>
      <AddStaffForm
        onAdded={(email, url) => {
          setProblem(null);
          setLink({ email, url, emailed: true });
        }}
      />
    </AdminPage>
  );
}

type PendingChange = { member: StaffMember; change: { role: StaffRole } | { disabled: true } };

/** The question before a change: what it will mean for the member, and a yes or a no. */
function ConfirmChange({ pending, onYes, onNo }: { pending: PendingChange; onYes: () => void; onNo: () => void }) {
  const who = pending.member.name || pending.member.email;
  const { change } = pending;
  const [question, yes] =
    'role' in change
      ? [
          `Make ${who} ${change.role === 'owner' ? 'an owner' : 'staff'}? ${staffRoleAbilities[change.role]}`,
          `Yes, make ${who} ${change.role === 'owner' ? 'an owner' : 'staff'}`,
        ]
      : [
          `Disable ${who}? They are signed out at once and cannot sign in until an owner enables them again.`,
          `Yes, disable ${who}`,
        ];
  return (
    <div role="alert" className="adm-confirm">
      <p>{question}</p>
      <div className="adm-row">
        <button type="button" className="button adm-small" onClick={onYes}>
          {yes}
        </button>
        <button type="button" className="button button-secondary adm-small" onClick={onNo}>
          Keep as it is
        </button>
      </div>
    </div>
  );
}

const helper = dataColumns<StaffMember>();

function StaffTable(props: {
  staff: StaffMember[];
  onRole: (member: StaffMember, role: StaffMember['role']) => Promise<void>;
  onDisabled: (member: StaffMember, disabled: boolean) => Promise<void>;
  onLink: (member: StaffMember) => Promise<void>;
  onResetTwoFactor: (member: StaffMember) => Promise<void>;
  myId: number | undefined;
}) {
  const columns = helper.columns([
    helper.accessor('name', { header: 'Name' }),
    helper.accessor('email', { header: 'E-mail' }),
    helper.accessor('role', {
      header: 'Role',
      cell: ({ row: { original: member } }) => (
        <>
          <label className="visually-hidden" htmlFor={`role-${member.id}`}>
            Role of {member.email}
          </label>
          <select
            id={`role-${member.id}`}
            className="input"
            value={member.role}
            onChange={(event) => void props.onRole(member, event.target.value as StaffMember['role'])}
          >
            {staffRoles.map((role) => (
              <option key={role} value={role}>
                {humanise(role)}
              </option>
            ))}
          </select>
        </>
      ),
    }),
    helper.display({
      id: 'state',
      header: 'State',
      cell: ({ row: { original: member } }) =>
        member.disabled ? 'Disabled' : member.active ? 'Active' : 'Waiting for a password',
    }),
    helper.accessor('totpEnabled', { header: 'Two-factor', cell: (info) => (info.getValue() ? 'On' : 'Off') }),
    helper.accessor('createdAt', { header: 'Since', cell: (info) => formatDate(info.getValue()) }),
    helper.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row: { original: member } }) => (
        <div className="adm-row">
          <button
            type="button"
            className="button button-secondary adm-small"
            onClick={() => void props.onDisabled(member, !member.disabled)}
          >
            {member.disabled ? 'Enable' : 'Disable'}
            <span className="visually-hidden"> {member.email}</span>
          </button>
          <button type="button" className="button button-secondary adm-small" onClick={() => void props.onLink(member)}>
            New set-password link<span className="visually-hidden"> for {member.email}</span>
          </button>
          {member.totpEnabled && member.id !== props.myId && (
            <button
              type="button"
              className="button button-secondary adm-small"
              onClick={() => void props.onResetTwoFactor(member)}
            >
              Reset two-factor<span className="visually-hidden"> for {member.email}</span>
            </button>
          )}
        </div>
      ),
    }),
  ]);
  return (
    <DataTable caption="Staff accounts" columns={columns} rows={props.staff} rowKey={(member) => String(member.id)} />
  );
}

function AddStaffForm({ onAdded }: { onAdded: (email: string, url: string) => void }) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  const form = useForm<NewStaff>({
    resolver: zodResolver(newStaffSchema),
    defaultValues: { email: '', name: '', role: 'staff' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      const answer = await addStaff(values, queryClient);
      form.reset();
      onAdded(answer.member.email, answer.setPasswordUrl);
    } catch (error) {
      setProblem(error);
    }
  });
  return (
    <form noValidate aria-label="Add a staff member" className="adm-form" onSubmit={submit}>
      <ErrorAlert error={problem} />
      <Field
        id="new-staff-name"
        label="Name"
        autoComplete="off"
        error={errors.name?.message}
        {...form.register('name')}
      />
      <Field
        id="new-staff-email"
        label="E-mail address"
        type="email"
        autoComplete="off"
        error={errors.email?.message}
        {...form.register('email')}
      />
      <SelectField id="new-staff-role" label="Role" error={errors.role?.message} {...form.register('role')}>
        <option value="staff">Staff: orders, customers and catalogue</option>
        <option value="owner">Owner: everything, staff accounts too</option>
      </SelectField>
      <button type="submit" className="button adm-small" disabled={isSubmitting}>
        Add and show the set-password link
      </button>
    </form>
  );
}
