import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import { ListPage, useResourceList, type Column } from '../../kit';
import { TagDialog, type Tag } from './TagDialog';
import './i18n';

/** Tags page (admin §2): search, name as a coloured chip, tickets count, actions. */
export default function TagsPage() {
  const { t } = useTranslation();
  const list = useResourceList<Tag>({ path: '/tags/', rows: 'tags', event: 'tag' });
  const columns: Column<Tag>[] = [
    {
      key: 'name',
      label: t('tags.name'),
      align: 'center',
      render: (tag) => (
        <Chip
          label={tag.name}
          size="small"
          sx={{ bgcolor: tag.color, color: 'common.white', textShadow: '0 0 2px #000' }}
        />
      ),
    },
    {
      key: 'tickets',
      label: t('tags.tickets'),
      align: 'center',
      render: (tag) => tag.ticketsCount ?? 0,
    },
  ];
  return (
    <ListPage
      texts="tags"
      list={list}
      columns={columns}
      testId="tag"
      dialog={(props) => <TagDialog {...props} />}
    />
  );
}
