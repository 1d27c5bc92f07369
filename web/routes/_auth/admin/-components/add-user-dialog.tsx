import { useMutation } from "@tanstack/react-query";
import type * as z from "zod";

import { FormFeedback } from "@/components/form-feedback";
import { useMessages } from "@/i18n/use-messages";
import { useTrpc } from "@/lib/auth";
import { useAppForm } from "@/lib/form";
import { liveCheck, schemaProblem } from "@/lib/form-errors";
import { USERNAME_MAX_LENGTH } from "#src/core/credential-rules";
import { inviteUserSchema } from "#src/features/users/users.schemas";
import type { AdminGroup } from "./admin-types";
import { AddDialogButton, type FormDialogControls, useDialogSubmit } from "./form-dialog";

// docs/architecture.md §6 POST /api/users/invite (docs/decisions/058): an admin adds a user by username and e-mail, in
// the groups ticked (the default group ticked to start with; none: the server puts them there). The user
// chooses a password through the link mailed to them. Add is disabled while a field is blank; the rest
// (username rule, address, taken name) is the server's, shown in the form.
export function AddUserButton({ groups, defaultGroupId }: { groups: AdminGroup[] | undefined; defaultGroupId: number | undefined }) {
  const t = useMessages();
  return (
    <AddDialogButton label={t.users.addUser.title} description={t.users.addUser.description}>
      {(controls) => <AddUserForm controls={controls} groups={groups ?? []} defaultGroupId={defaultGroupId} />}
    </AddDialogButton>
  );
}

function AddUserForm({
  controls,
  groups,
  defaultGroupId,
}: {
  controls: FormDialogControls;
  groups: AdminGroup[];
  defaultGroupId: number | undefined;
}) {
  const trpc = useTrpc();
  const t = useMessages();
  const invite = useMutation(trpc.users.invite.mutationOptions());
  const { feedback, onSubmitInvalid, submit } = useDialogSubmit(controls, t.users.addUser.failed);
  const startGroups = groups.some((g) => g.id === defaultGroupId) ? [defaultGroupId!] : [];
  const defaultValues: { username: string; email: string; group_ids: number[] } = { username: "", email: "", group_ids: startGroups };
  const form = useAppForm({
    defaultValues,
    validators: {
      ...liveCheck(({ value }: { value: typeof defaultValues }) =>
        value.username.trim() === "" || value.email.trim() === "" ? "required" : undefined,
      ),
      onSubmit: ({ value }: { value: typeof defaultValues }) => schemaProblem(inviteUserSchema, value),
    },
    onSubmitInvalid,
    onSubmit: ({ value }) =>
      submit(async () => {
        const input: z.output<typeof inviteUserSchema> = inviteUserSchema.parse(value);
        await invite.mutateAsync(input);
        return t.users.addUser.added(input.username, input.email);
      }),
  });

  return (
    <form.AppForm>
      <form.Form className="grid gap-4" noValidate aria-label={t.users.addUser.title}>
        <FormFeedback feedback={feedback} />
        <form.AppField name="username">
          {(field) => (
            <field.TextField
              label={t.users.username}
              required
              autoFocus
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={USERNAME_MAX_LENGTH}
            />
          )}
        </form.AppField>
        <form.AppField name="email">
          {(field) => <field.TextField label={t.users.email} type="email" required autoComplete="off" maxLength={254} />}
        </form.AppField>
        {groups.length > 0 && (
          <form.AppField name="group_ids">
            {(field) => (
              <fieldset className="grid gap-1" aria-describedby="add-user-groups-hint">
                <legend className="mb-1 text-sm font-medium">{t.users.addUser.groupsLegend}</legend>
                {groups.map((group) => {
                  const id = `add-user-group-${group.id}`;
                  return (
                    <label
                      key={group.id}
                      htmlFor={id}
                      className="flex cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 hover:bg-accent"
                    >
                      <field.MemberCheckbox id={id} member={group.id} />
                      <span className="text-sm">{group.name}</span>
                    </label>
                  );
                })}
                <p id="add-user-groups-hint" className="text-sm text-muted-foreground">
                  {t.users.addUser.groupsHint}
                </p>
              </fieldset>
            )}
          </form.AppField>
        )}
        <form.Actions
          onCancel={controls.close}
          submitLabel={t.common.add}
          busyLabel={t.users.addUser.adding}
          cancelLabel={t.common.cancel}
        />
      </form.Form>
    </form.AppForm>
  );
}
