import {
  ActionIcon,
  Avatar,
  Button,
  Group,
  Menu,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  IconDots,
  IconMailPlus,
  IconTrash,
  IconUserCheck,
  IconUserOff,
  IconUsers,
} from '@tabler/icons-react';
import {
  type CompanyRole,
  type CompanyUser,
  type InviteCompanyUserBody,
  invitableRoles,
  inviteCompanyUserBodySchema,
} from '@upnext/contract/companies';
import { companyRoles } from '@upnext/contract/members';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import {
  EmptyBlock,
  ErrorNotice,
  LoadError,
  LoadingList,
} from '../../../components/StateViews.tsx';
import { Tag } from '../../../components/tones.tsx';
import { useCurrentUser } from '../../../lib/auth-session.ts';
import { useInviteCompanyUser } from '../api/inviteCompanyUser.ts';
import { useCompanyUsers } from '../api/listCompanyUsers.ts';
import { useRemoveCompanyUser } from '../api/removeCompanyUser.ts';
import { useUpdateCompanyUser } from '../api/updateCompanyUser.ts';
import { contractErrors } from './formErrors.ts';
import { notifySuccess } from './notify.ts';
import { ScrollBox } from './ScrollBox.tsx';

const statusColor = { active: 'teal', invited: 'blue', disabled: 'gray' } as const;

function InviteForm({ companyId }: { companyId: string }) {
  const { t } = useTranslation('workspace');
  const invite = useInviteCompanyUser(companyId);
  const form = useForm<InviteCompanyUserBody>({
    mode: 'controlled',
    initialValues: { email: '', role: 'staff' },
    validate: (values) =>
      contractErrors(inviteCompanyUserBodySchema, { ...values, email: values.email.trim() }),
  });
  // Ownership is never invited: an owner hands it over by changing a member's role.
  const roles = invitableRoles;

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) =>
        invite.mutate(
          { ...values, email: values.email.trim() },
          {
            onSuccess: (member) => {
              notifySuccess(t('staff.invitedBody', { email: member.email }), t('staff.invited'));
              form.reset();
            },
          },
        ),
      )}
    >
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('staff.inviteTitle')}
        </Title>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label={t('staff.email')}
            type="email"
            autoComplete="off"
            required
            style={{ flex: '1 1 240px' }}
            {...form.getInputProps('email')}
          />
          <Select
            label={t('staff.role')}
            data={roles.map((role) => ({ value: role, label: t(`roles.${role}`) }))}
            allowDeselect={false}
            w={{ base: '100%', xs: 160 }}
            {...form.getInputProps('role')}
          />
          <Button
            type="submit"
            loading={invite.isPending}
            leftSection={<IconMailPlus size={18} aria-hidden />}
            mt={{ base: 0, xs: 25 }}
            w={{ base: '100%', xs: 'auto' }}
          >
            {t('staff.invite')}
          </Button>
        </Group>
        <ErrorNotice error={invite.error} />
      </Stack>
    </form>
  );
}

interface MemberRowProps {
  member: CompanyUser;
  canManage: boolean;
  callerRole: CompanyRole;
  isSelf: boolean;
  onChangeRole: (role: CompanyRole) => void;
  onToggle: () => void;
  onRemove: () => void;
}

function MemberRow({
  member,
  canManage,
  callerRole,
  isSelf,
  onChangeRole,
  onToggle,
  onRemove,
}: MemberRowProps) {
  const { t } = useTranslation('workspace');
  // Admins cannot touch owners (the server refuses it too).
  const editable = canManage && !(callerRole === 'admin' && member.role === 'owner');
  const roleOptions = companyRoles
    .filter((role) => callerRole === 'owner' || role !== 'owner')
    .map((role) => ({ value: role, label: t(`roles.${role}`) }));
  const name = member.displayName || member.email;
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="sm" wrap="nowrap">
          <Avatar
            src={member.avatarUrl}
            alt=""
            name={name}
            color="brand"
            variant="filled"
            size={36}
          />
          <div style={{ minWidth: 0 }}>
            <Text fw={600} size="sm" truncate>
              {name}
              {isSelf ? ` ${t('staff.you')}` : ''}
            </Text>
            {member.displayName ? (
              <Text size="xs" c="dimmed" truncate>
                {member.email}
              </Text>
            ) : null}
          </div>
        </Group>
      </Table.Td>
      <Table.Td>
        {editable ? (
          <Select
            aria-label={t('staff.roleOf', { name })}
            data={roleOptions}
            value={member.role}
            allowDeselect={false}
            onChange={(value) => {
              if (value && value !== member.role) onChangeRole(value as CompanyRole);
            }}
            size="xs"
            w={120}
          />
        ) : (
          <Text size="sm">{t(`roles.${member.role}`)}</Text>
        )}
      </Table.Td>
      <Table.Td>
        <Tag tone={statusColor[member.status]}>{t(`memberStatus.${member.status}`)}</Tag>
      </Table.Td>
      <Table.Td>
        {editable ? (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={t('staff.actionsFor', { name })}
              >
                <IconDots size={18} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {member.status === 'disabled' ? (
                <Menu.Item leftSection={<IconUserCheck size={16} aria-hidden />} onClick={onToggle}>
                  {t('staff.enable')}
                </Menu.Item>
              ) : (
                <Menu.Item leftSection={<IconUserOff size={16} aria-hidden />} onClick={onToggle}>
                  {t('staff.disable')}
                </Menu.Item>
              )}
              <Menu.Item
                color="red.9"
                leftSection={<IconTrash size={16} aria-hidden />}
                onClick={onRemove}
              >
                {t('staff.remove')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

type PendingAction =
  | { kind: 'role'; member: CompanyUser; role: CompanyRole }
  | { kind: 'toggle'; member: CompanyUser }
  | { kind: 'remove'; member: CompanyUser };

interface StaffPanelProps {
  companyId: string;
  canManage: boolean;
  callerRole: CompanyRole;
}

/** Members with role and status; owners and admins invite, change roles, disable and remove. */
export function StaffPanel({ companyId, canManage, callerRole }: StaffPanelProps) {
  const { t } = useTranslation('workspace');
  const me = useCurrentUser();
  const members = useCompanyUsers(companyId);
  const update = useUpdateCompanyUser(companyId);
  const remove = useRemoveCompanyUser(companyId);
  const [pending, setPending] = useState<PendingAction | null>(null);

  const close = () => {
    setPending(null);
    update.reset();
    remove.reset();
  };
  const confirm = () => {
    if (!pending) return;
    const options = { onSuccess: close };
    if (pending.kind === 'remove') remove.mutate(pending.member.userId, options);
    else if (pending.kind === 'role') {
      update.mutate({ userId: pending.member.userId, body: { role: pending.role } }, options);
    } else {
      const status = pending.member.status === 'disabled' ? 'active' : 'disabled';
      update.mutate({ userId: pending.member.userId, body: { status } }, options);
    }
  };

  const name = pending ? pending.member.displayName || pending.member.email : '';
  const dialog = pending
    ? pending.kind === 'remove'
      ? {
          title: t('staff.removeTitle'),
          body: t('staff.removeBody', { name }),
          label: t('staff.remove'),
          danger: true,
        }
      : pending.kind === 'role'
        ? {
            title: t('staff.roleTitle'),
            body: t('staff.roleBody', { name, role: t(`roles.${pending.role}`) }),
            label: t('staff.changeRole'),
            danger: false,
          }
        : pending.member.status === 'disabled'
          ? {
              title: t('staff.enableTitle'),
              body: t('staff.enableBody', { name }),
              label: t('staff.enable'),
              danger: false,
            }
          : {
              title: t('staff.disableTitle'),
              body: t('staff.disableBody', { name }),
              label: t('staff.disable'),
              danger: true,
            }
    : null;

  return (
    <Stack gap="lg">
      {canManage ? (
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
          <InviteForm companyId={companyId} />
        </Paper>
      ) : null}
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('staff.membersTitle')}
        </Title>
        {members.isPending ? (
          <LoadingList rows={3} />
        ) : members.isError ? (
          <LoadError error={members.error} onRetry={() => void members.refetch()} />
        ) : members.data.length === 0 ? (
          <EmptyBlock icon={<IconUsers aria-hidden />} title={t('staff.emptyTitle')} order={4} />
        ) : (
          <Paper withBorder radius="lg">
            <ScrollBox label={t('staff.membersTitle')} minWidth={520}>
              <Table verticalSpacing="sm" horizontalSpacing="md" striped={false} highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('staff.member')}</Table.Th>
                    <Table.Th>{t('staff.role')}</Table.Th>
                    <Table.Th>{t('staff.status')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('staff.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {members.data.map((member) => (
                    <MemberRow
                      key={member.id}
                      member={member}
                      canManage={canManage}
                      callerRole={callerRole}
                      isSelf={member.userId === me?.id}
                      onChangeRole={(role) => setPending({ kind: 'role', member, role })}
                      onToggle={() => setPending({ kind: 'toggle', member })}
                      onRemove={() => setPending({ kind: 'remove', member })}
                    />
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollBox>
          </Paper>
        )}
      </Stack>
      {dialog ? (
        <ConfirmDialog
          opened
          title={dialog.title}
          body={dialog.body}
          confirmLabel={dialog.label}
          danger={dialog.danger}
          loading={update.isPending || remove.isPending}
          error={update.error ?? remove.error}
          onConfirm={confirm}
          onClose={close}
        />
      ) : null}
    </Stack>
  );
}
