import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  permissionDescriptions,
  permissions,
  staffRoleInputSchema,
  type StaffRoleInput,
  type StaffRoleView,
} from '../../../../contract/admin/permissions.ts';
import { AdminPage } from '../../lib/admin-page.tsx';
import { roleAbilities, rolesQueryOptions } from '../../lib/roles.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Field } from '../../ui/field.tsx';
import { createRole, deleteRole, updateRole } from './api/roles.ts';

/**
 * The role editor (docs/back-office.md#permissions): the owner role, which holds everything and
 * does not change, and the roles the owner defines, each a name and a set of permissions.
 */
export default function RolesPage() {
  const roles = useQuery(rolesQueryOptions());
  const [done, setDone] = useState('');
  return (
    <AdminPage title="Roles">
      <p>
        A member of staff holds one role; a role is the set of permissions below. Changing a role changes what everyone
        holding it may do, from their next click.
      </p>
      <ErrorAlert error={roles.error} />
      <div role="status">{done && <p className="adm-done">{done}</p>}</div>
      {roles.data?.map((role) =>
        role.builtIn ? (
          <section key={role.id} className="adm-card" aria-labelledby={`role-${role.id}`}>
            <h2 id={`role-${role.id}`}>{role.name}</h2>
            <p>Holds every permission: {roleAbilities(role)}. It cannot be changed or deleted.</p>
          </section>
        ) : (
          <RoleForm key={`${role.id}-${role.name}-${role.permissions.join()}`} role={role} onDone={setDone} />
        ),
      )}
      <RoleForm key={`new-${roles.data?.length ?? 0}`} onDone={setDone} />
    </AdminPage>
  );
}

/** One role's name and permissions, or (without `role`) a new one. */
function RoleForm({ role, onDone }: { role?: StaffRoleView; onDone: (message: string) => void }) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<unknown>(null);
  const [confirming, setConfirming] = useState(false);
  const form = useForm<StaffRoleInput>({
    resolver: zodResolver(staffRoleInputSchema),
    defaultValues: { name: role?.name ?? '', permissions: role?.permissions ?? [] },
  });
  const { errors, isSubmitting } = form.formState;
  const id = role ? `role-${role.id}` : 'new-role';
  const title = role ? role.name : 'New role';

  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    onDone('');
    try {
      if (role) {
        const saved = await updateRole(role.id, values, queryClient);
        onDone(`Role “${saved.name}” saved.`);
      } else {
        const made = await createRole(values, queryClient);
        onDone(`Role “${made.name}” added.`);
      }
    } catch (error) {
      setProblem(error);
    }
  });

  async function remove() {
    if (!role) return;
    setConfirming(false);
    setProblem(null);
    try {
      await deleteRole(role.id, queryClient);
      onDone(`Role “${role.name}” deleted.`);
    } catch (error) {
      setProblem(error);
    }
  }

  return (
    <form noValidate aria-labelledby={id} className="adm-card adm-form" onSubmit={submit}>
      <h2 id={id}>{title}</h2>
      {role && (
        <p className="adm-hint">
          Held by {role.members} {role.members === 1 ? 'member' : 'members'} of staff.
        </p>
      )}
      <ErrorAlert error={problem} />
      <Field
        id={`${id}-name`}
        label="Name"
        autoComplete="off"
        error={errors.name?.message}
        {...form.register('name')}
      />
      <fieldset>
        <legend>Permissions</legend>
        {permissions.map((permission) => (
          <div key={permission} className="adm-check">
            <input
              type="checkbox"
              id={`${id}-${permission}`}
              value={permission}
              aria-describedby={`${id}-${permission}-hint`}
              {...form.register('permissions')}
            />{' '}
            <label htmlFor={`${id}-${permission}`}>{permissionDescriptions[permission].label}</label>
            <p id={`${id}-${permission}-hint`} className="adm-hint">
              {permissionDescriptions[permission].allows}
            </p>
          </div>
        ))}
      </fieldset>
      <div className="adm-row">
        <button type="submit" className="button adm-small" disabled={isSubmitting}>
          {role ? `Save ${role.name}` : 'Add the role'}
        </button>
        {role && (
          <button
            type="button"
            className="button button-secondary adm-small"
            onClick={() => setConfirming(true)}
            disabled={isSubmitting}
          >
            Delete {role.name}
          </button>
        )}
      </div>
      {role && confirming && (
        <div role="alert" className="adm-confirm">
          <p>
            Delete the role “{role.name}”? A role someone holds cannot be deleted: give them another role on the Staff
            page first.
          </p>
          <div className="adm-row">
            <button type="button" className="button adm-small" onClick={() => void remove()}>
              Yes, delete {role.name}
            </button>
            <button type="button" className="button button-secondary adm-small" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </div>
      )}
    </form>
  );
}
