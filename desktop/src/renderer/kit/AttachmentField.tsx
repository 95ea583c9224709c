import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorToast } from '../ui/useErrorToast';
import './i18n';

/** Secondary §5: spaces in an attached file's name become underscores. */
export const attachmentName = (name: string) => name.replace(/\s/g, '_');

/** The multipart body of an upload: the file under `file`, its name without spaces. */
export function attachmentForm(file: File): FormData {
  const data = new FormData();
  data.append('file', file, attachmentName(file.name));
  return data;
}

interface Props {
  /** A file picked and not sent yet; it is sent when the record is saved. */
  file: File | null;
  onPick(file: File | null): void;
  /** The record's stored attachment, if any. */
  stored: string | null | undefined;
  /** Removes the stored attachment on the server (a picked file is only dropped). */
  onRemoveStored(): void;
  /** Shown when there is no attachment ('Sem anexo'). */
  emptyText: string;
  /** A caption before the name ('Anexo'). */
  label?: string;
  /** `data-testid` prefix: `{testId}-name` and `{testId}-input`. */
  testId: string;
  accept?: string;
}

/**
 * One attachment of a record (quick messages, queues; later campaigns, schedules, file lists):
 * its name or the empty text, a button that picks a file and one that removes it.
 */
export function AttachmentField(props: Props) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const name = props.file ? attachmentName(props.file.name) : props.stored;
  const remove = () => {
    if (props.file) props.onPick(null);
    else props.onRemoveStored();
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
      {props.label && <Typography variant="body2">{props.label}:</Typography>}
      <Typography variant="body2" noWrap sx={{ minWidth: 0 }} data-testid={`${props.testId}-name`}>
        {name ?? props.emptyText}
      </Typography>
      <IconButton aria-label={t('admin.attach')} onClick={() => input.current?.click()}>
        <AttachFile />
      </IconButton>
      {name && (
        <IconButton aria-label={t('admin.removeAttachment')} onClick={remove}>
          <DeleteOutlined />
        </IconButton>
      )}
      <input
        ref={input}
        type="file"
        hidden
        accept={props.accept}
        data-testid={`${props.testId}-input`}
        onChange={(e) => {
          props.onPick(e.target.files?.[0] ?? null);
          // The same file may be picked again after a removal.
          e.target.value = '';
        }}
      />
    </Stack>
  );
}

interface AttachmentOptions<T> {
  /** The dialog is open; each opening starts again from `record`, with no file picked. */
  open: boolean;
  record: T | null;
  /** Sends a file for a saved record; answers the record with its attachment. */
  upload(id: number, body: FormData): Promise<T>;
  /** Removes the stored attachment; answers the record without it. */
  remove(id: number): Promise<T>;
  /** The record changed on the server (its attachment removed). */
  onChanged(row: T): void;
}

/**
 * The attachment of a record in an add/edit dialog: the record as it now stands (`current`, null
 * until a new one is saved), the picked file, `send` to upload it after the save, and the props
 * of an `AttachmentField`.
 */
export function useAttachment<T extends { id: number; mediaName?: string | null }>(
  options: AttachmentOptions<T>,
) {
  const { open, record } = options;
  const showError = useErrorToast();
  const [file, setFile] = useState<File | null>(null);
  const [current, setCurrent] = useState<T | null>(record);
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    if (!open) return;
    setCurrent(record);
    setFile(null);
  }, [open, record]);

  const onRemoveStored = () => {
    if (!current) return;
    latest.current.remove(current.id).then((row) => {
      setCurrent(row);
      latest.current.onChanged(row);
    }, showError);
  };

  /** After the record's save: uploads the picked file, if any, and answers the record. */
  const send = async (saved: T): Promise<T> => {
    if (!file) return saved;
    const row = await latest.current.upload(saved.id, attachmentForm(file));
    setFile(null);
    return row;
  };

  return {
    current,
    setCurrent,
    send,
    field: { file, onPick: setFile, stored: current?.mediaName, onRemoveStored },
  };
}
