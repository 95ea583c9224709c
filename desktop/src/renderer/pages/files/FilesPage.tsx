import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import { ListPage, useResourceList, type Column } from '../../kit';
import { FileListDialog, type FileList } from './FileListDialog';
import './i18n';

/** /files (secondary §2): name and actions, with the add/edit dialog; live, searchable. */
export default function FilesPage() {
  const { t } = useTranslation();
  const list = useResourceList<FileList>({
    path: '/files',
    rows: 'files',
    event: 'file',
    item: 'record',
    id: 'id',
  });
  const columns: Column<FileList>[] = [
    { key: 'name', label: t('files.name'), render: (f) => f.name },
    {
      key: 'options',
      label: t('files.options'),
      align: 'center',
      render: (f) => <Chip size="small" label={f.options.length} />,
    },
  ];
  return (
    <ListPage
      texts="files"
      list={list}
      columns={columns}
      testId="file-list"
      dialog={(props) => <FileListDialog {...props} />}
    />
  );
}
