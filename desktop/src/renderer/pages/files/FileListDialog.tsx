import {
  fileListEndpoints,
  fileListName,
  FILE_LIST_MAX_OPTIONS,
  type FileListAnswer,
} from '@atende/shared';
import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api } from '../../api';
import {
  FormDialog,
  requiredText,
  TextInput,
  useAdminFieldError,
  type RecordDialogProps,
} from '../../kit';
import './i18n';

export type FileList = FileListAnswer;

/** What a file list option may hold: the media types the checked upload path stores. */
export const OPTION_FILE_TYPES =
  'image/*,audio/*,video/*,application/pdf,.doc,.docx,.xls,.xlsx,.txt';

/** File list rules (secondary §5): name at least 3 ('nome muito curto'), message required. */
export const fileListForm = z.object({
  name: requiredText(fileListName),
  message: z.string().trim().min(1, 'Required'),
  options: z
    .array(
      z.object({
        key: z.string(),
        id: z.number().optional(),
        name: z.string().trim().min(1, 'Required').max(255),
        fileName: z.string(),
      }),
    )
    .max(FILE_LIST_MAX_OPTIONS),
});
type Form = z.input<typeof fileListForm>;

let keys = 0;
const newKey = () => `o${++keys}`;

const mediaTypeOf = (file: File) => file.type.split('/')[0] || 'document';

function OptionsField(props: { onPick(key: string, f: File): void }) {
  const { t } = useTranslation();
  const fieldError = useAdminFieldError();
  const { control, register, formState, setValue, watch } = useFormContext<Form>();
  const { fields, append, remove } = useFieldArray({ control, name: 'options', keyName: 'rhfKey' });
  return (
    <Box>
      <Typography variant="subtitle2" sx={{ mt: 1, mb: 1 }}>
        {t('files.dialog.options')}
      </Typography>
      {fields.map((field, index) => {
        const message = formState.errors.options?.[index]?.name?.message;
        const fileName = watch(`options.${index}.fileName`);
        return (
          <Box
            key={field.rhfKey}
            sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mb: 1, flexWrap: 'wrap' }}
            data-testid={`file-option-${index}`}
          >
            <TextField
              {...register(`options.${index}.name`)}
              label={t('files.dialog.optionName')}
              size="small"
              error={Boolean(message)}
              helperText={fieldError(message)}
              sx={{ flex: '1 1 160px' }}
            />
            <Button
              component="label"
              variant="outlined"
              size="small"
              startIcon={<AttachFile />}
              sx={{ maxWidth: 220, mt: 0.5 }}
            >
              <Box
                component="span"
                sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
              >
                {fileName || t('files.dialog.pick')}
              </Box>
              <input
                hidden
                type="file"
                accept={OPTION_FILE_TYPES}
                data-testid={`file-option-input-${index}`}
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (!file) return;
                  props.onPick(field.key, file);
                  setValue(`options.${index}.fileName`, file.name, { shouldValidate: true });
                  if (!watch(`options.${index}.name`)) {
                    setValue(`options.${index}.name`, file.name, { shouldValidate: true });
                  }
                }}
              />
            </Button>
            <IconButton aria-label={t('files.dialog.removeOption')} onClick={() => remove(index)}>
              <DeleteOutlined />
            </IconButton>
          </Box>
        );
      })}
      {fields.length < FILE_LIST_MAX_OPTIONS && (
        <Button
          size="small"
          onClick={() => append({ key: newKey(), name: '', fileName: '' })}
          data-testid="file-option-add"
        >
          {t('files.dialog.addOption')}
        </Button>
      )}
    </Box>
  );
}

/**
 * Add or edit a file list: name, message and its files. The list is saved first; then the chosen
 * files go, in one multipart request, to `/files/uploadList/{id}` (the checked upload path).
 */
export function FileListDialog(props: RecordDialogProps<FileList>) {
  const { record } = props;
  const { t } = useTranslation();
  const [files] = useState(() => new Map<string, File>());
  const values = useMemo<Form>(
    () => ({
      name: record?.name ?? '',
      message: record?.message ?? '',
      options: (record?.options ?? []).map((o) => ({
        key: newKey(),
        id: o.id,
        name: o.name,
        fileName: o.path ? o.name : '',
      })),
    }),
    [record],
  );
  return (
    <FormDialog
      {...props}
      texts="files"
      maxWidth="sm"
      schema={fileListForm}
      values={values}
      submit={async ({ name, message, options }) => {
        const body = {
          name,
          message,
          options: options.map(({ id, name: n }) => ({ id, name: n })),
        };
        const saved = record
          ? await api.call(fileListEndpoints.updateFileList, { params: { id: record.id }, body })
          : await api.call(fileListEndpoints.createFileList, { body });
        // New options were created in order: their ids follow those that existed.
        const existing = new Set(options.flatMap((o) => (o.id ? [o.id] : [])));
        const created = saved.options.filter((o) => !existing.has(o.id)).map((o) => o.id);
        let n = 0;
        const form = new FormData();
        for (const option of options) {
          const id = option.id ?? created[n++];
          const file = files.get(option.key);
          if (!file || id === undefined) continue;
          form.append('files', file);
          form.append('id', String(id));
          form.append('name', option.name);
          form.append('mediaType', mediaTypeOf(file));
        }
        if (!form.has('files')) return saved;
        files.clear();
        return api.call(fileListEndpoints.uploadFileList, {
          params: { id: saved.id },
          body: form,
        });
      }}
    >
      <TextInput name="name" label={t('files.dialog.name')} autoFocus />
      <TextInput name="message" label={t('files.dialog.message')} multiline minRows={3} />
      <OptionsField onPick={(key, f) => files.set(key, f)} />
    </FormDialog>
  );
}
