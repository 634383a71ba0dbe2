import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { StaffRoleView } from '../../../../contract/admin/permissions.ts';
import { newStaffSchema, type NewStaff, type StaffMe, type StaffMember } from '../../../../contract/admin/staff.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { formatDate } from '../../lib/format.ts';
import { roleAbilities, rolesQueryOptions } from '../../lib/roles.ts';
import { DataTable, dataColumns } from '../../ui/data-table.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field, SelectField } from '../../ui/field.tsx';
import { addStaff, changeStaff, newSetPasswordLink, resetTwoFactor, staffListQueryOptions } from './api/staff.ts';
import { staffMeQueryOptions } from '../../lib/staff-session.ts';
import { SetPasswordLink } from './set-password-link.tsx';

/** Staff accounts (the staff permission): add, change role, disable or enable, and hand out a new link. */
export default function StaffPage() {
  const staff = useQuery(staffListQueryOptions());
  const roles = useQuery(rolesQueryOptions());
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
      <ErrorAlert error={problem ?? staff.error ?? roles.error} />
      {done && (
        <p className="adm-done" role="status">
          {done}
        </p>
      )}
      {link && <SetPasswordLink email={link.email} url={link.url} emailed={link.emailed} />}
      {pending && (
        <ConfirmChange
          pending={pending}
          roles={roles.data ?? []}
          onYes={() => {
            setPending(null);
            void run(() => changeStaff(pending.member.id, pending.change, queryClient));
          }}
          onNo={() => setPending(null)}
        />
      )}
      {staff.data && roles.data && me.data && (
        <StaffTable
          staff={staff.data}
          roles={roles.data}
          mayGive={(role) => mayGive(me.data, role)}
          mayManage={(member) => member.role !== 'owner' || me.data.role === 'owner'}
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
        roles={(roles.data ?? []).filter((role) => me.data && mayGive(me.data, role))}
        onAdded={(email, url) => {
          setProblem(null);
          setLink({ email, url, emailed: true });
        }}
      />
    </AdminPage>
  );
}

/**
 * The server's rule (staff.service.ts), so the page offers only what it will accept: an owner gives
 * any role; anyone else only a role within their own permissions, never the owner role.
 */
function mayGive(me: Pick<StaffMe, 'role' | 'permissions'>, role: StaffRoleView): boolean {
  if (me.role === 'owner') return true;
  return !role.builtIn && role.permissions.every((permission) => me.permissions.includes(permission));
}

type PendingChange = { member: StaffMember; change: { role: string } | { disabled: true } };

/** "an owner", "a packer": a role's name as the question says it. */
function aRole(name: string): string {
  return `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
}

/** The question before a change: what it will mean for the member, and a yes or a no. */
function ConfirmChange({
  pending,
  roles,
  onYes,
  onNo,
}: {
  pending: PendingChange;
  roles: StaffRoleView[];
  onYes: () => void;
  onNo: () => void;
}) {
  const who = pending.member.name || pending.member.email;
  const { change } = pending;
  const role = 'role' in change ? roles.find((r) => r.name === change.role) : undefined;
  const [question, yes] =
    'role' in change
      ? [
          `Make ${who} ${aRole(change.role)}? They will be able to do ${role ? roleAbilities(role) : 'what the role allows'}.`,
          `Yes, make ${who} ${aRole(change.role)}`,
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
  roles: StaffRoleView[];
  /** Whether the signed-in member may give this role; a member's own role shows either way. */
  mayGive: (role: StaffRoleView) => boolean;
  /** False for an owner's account when the signed-in member is not an owner: theirs to leave alone. */
  mayManage: (member: StaffMember) => boolean;
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
      cell: ({ row: { original: member } }) =>
        !props.mayManage(member) ? (
          member.role
        ) : (
          <>
            <label className="visually-hidden" htmlFor={`role-${member.id}`}>
              Role of {member.email}
            </label>
            <select
              id={`role-${member.id}`}
              className="input"
              value={member.role}
              onChange={(event) => void props.onRole(member, event.target.value)}
            >
              {props.roles
                .filter((role) => props.mayGive(role) || role.name === member.role)
                .map((role) => (
                  <option key={role.id} value={role.name} disabled={!props.mayGive(role)}>
                    {role.name}
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
      cell: ({ row: { original: member } }) =>
        props.mayManage(member) && (
          <div className="adm-row">
            <button
              type="button"
              className="button button-secondary adm-small"
              onClick={() => void props.onDisabled(member, !member.disabled)}
            >
              {member.disabled ? 'Enable' : 'Disable'}
              <span className="visually-hidden"> {member.email}</span>
            </button>
            <button
              type="button"
              className="button button-secondary adm-small"
              onClick={() => void props.onLink(member)}
            >
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

function AddStaffForm({ roles, onAdded }: { roles: StaffRoleView[]; onAdded: (email: string, url: string) => void }) {
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
        {roles.map((role) => (
          <option key={role.id} value={role.name}>
            {role.name}: {roleAbilities(role)}
          </option>
        ))}
      </SelectField>
      <button type="submit" className="button adm-small" disabled={isSubmitting}>
        Add and show the set-password link
      </button>
    </form>
  );
}
