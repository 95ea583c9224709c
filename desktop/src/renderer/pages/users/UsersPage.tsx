import { useTranslation } from 'react-i18next';
import type { UserRow as User } from '../../api/types';
import { ListPage, useResourceList, type Column } from '../../kit';
import { UserModal } from './UserModal';
import './i18n';

/** Users page (admin §2): search, add, table of id, name, e-mail, profile and actions. */
export default function UsersPage() {
  const { t } = useTranslation();
  const list = useResourceList<User>({ path: '/users/', rows: 'users', event: 'user' });
  const columns: Column<User>[] = [
    { key: 'id', label: t('users.id'), align: 'center', render: (u) => u.id },
    { key: 'name', label: t('users.name'), render: (u) => u.name },
    { key: 'email', label: t('users.email'), render: (u) => u.email },
    {
      key: 'profile',
      label: t('users.profile'),
      align: 'center',
      render: (u) => t(`users.profiles.${u.profile}`),
    },
  ];
  return (
    <ListPage
      texts="users"
      list={list}
      columns={columns}
      testId="user"
      dialog={(props) => <UserModal {...props} />}
    />
  );
}
