import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageFrame, PageHeader, ScrollPaper } from '../../kit';
import { loadTasks, saveTasks, withoutTask, withTask, type Task } from './todos';
import './i18n';

/** Personal to-do (secondary §2): tasks kept only in browser storage; nothing goes to the server. */
export default function TodoListPage() {
  const { t, i18n } = useTranslation();
  const [tasks, setTasks] = useState<Task[]>(loadTasks);
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<number | null>(null);

  useEffect(() => saveTasks(tasks), [tasks]);

  const submit = () => {
    // Empty text after trimming is ignored (secondary §5).
    if (!text.trim()) return;
    setTasks((list) => withTask(list, text, editing, new Date()));
    setText('');
    setEditing(null);
  };

  return (
    <PageFrame>
      <PageHeader title={t('todolist.title')} />
      <Stack direction="row" spacing={1} sx={{ mb: 1 }}>
        <TextField
          size="small"
          fullWidth
          label={t('todolist.input')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') submit();
          }}
          slotProps={{ htmlInput: { 'data-testid': 'todo-input', maxLength: 1000 } }}
        />
        <Button variant="contained" onClick={submit} data-testid="todo-submit">
          {editing === null ? t('todolist.add') : t('todolist.save')}
        </Button>
      </Stack>
      <Typography variant="caption" color="text.secondary" sx={{ mb: 1 }}>
        {t('todolist.local')}
      </Typography>
      <ScrollPaper stickyActions={false}>
        {tasks.length === 0 ? (
          <Typography sx={{ p: 2 }} color="text.secondary">
            {t('todolist.empty')}
          </Typography>
        ) : (
          <List dense>
            {tasks.map((task, index) => (
              <ListItem
                key={`${task.createdAt}-${index}`}
                data-testid="todo-item"
                secondaryAction={
                  <>
                    <IconButton
                      aria-label={t('todolist.edit')}
                      onClick={() => {
                        setEditing(index);
                        setText(task.text);
                      }}
                    >
                      <Edit fontSize="small" />
                    </IconButton>
                    <IconButton
                      aria-label={t('todolist.delete')}
                      onClick={() => {
                        setTasks((list) => withoutTask(list, index));
                        if (editing === index) {
                          setEditing(null);
                          setText('');
                        }
                      }}
                    >
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </>
                }
                sx={{ pr: 12, bgcolor: editing === index ? 'action.selected' : undefined }}
              >
                <ListItemText
                  primary={task.text}
                  secondary={t('todolist.updated', {
                    date: new Date(task.updatedAt).toLocaleString(i18n.language),
                  })}
                  slotProps={{ primary: { sx: { wordBreak: 'break-word' } } }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </ScrollPaper>
    </PageFrame>
  );
}
