import { externalApiEndpoints, externalNumber } from '@atende/shared';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { createApiClient } from '../../api/client';
import { PageHeader } from '../../kit';
import { getPlatform } from '../../platform';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';
import { usePlanGate } from '../../routes/planGate';
import './i18n';

const SEND = externalApiEndpoints.sendExternalMessage;

/** The API's address as callers outside the app reach it. */
function endpointUrl(path: string): string {
  const url = getPlatform().resolveUrl(path);
  return /^https?:/.test(url) ? url : `${window.location.origin}${url}`;
}

/** Sends with the form's token (the connection's), not the signed-in user's. */
function sendWith(token: string, body: unknown) {
  const client = createApiClient(getPlatform, {
    getToken: () => token,
    refresh: async () => false,
    onUnauthorized: () => undefined,
  });
  return client.request<{ messageId: number; status: string }>('POST', SEND.path, { body });
}

function Code({ children }: { children: ReactNode }) {
  return (
    <Box
      component="pre"
      sx={{
        m: 0,
        p: 1.5,
        bgcolor: 'action.hover',
        borderRadius: 1,
        fontSize: 13,
        overflowX: 'auto',
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-all',
      }}
    >
      {children}
    </Box>
  );
}

type Errors = Partial<Record<'token' | 'number' | 'body' | 'file', string>>;

/** One test form (secondary §2, §5): token, number and a message or a file, all required. */
function TestForm({ media }: { media: boolean }) {
  const { t } = useTranslation();
  const [token, setToken] = useState('');
  const [number, setNumber] = useState('');
  const [body, setBody] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const showError = useErrorToast();
  const id = media ? 'media' : 'text';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next: Errors = {};
    const required = t('messagesApi.required');
    if (!token.trim()) next.token = required;
    const parsed = externalNumber.safeParse(number);
    if (!number.trim()) next.number = required;
    else if (!parsed.success) next.number = parsed.error.issues[0]?.message ?? required;
    if (media && !file) next.file = required;
    if (!media && !body.trim()) next.body = required;
    setErrors(next);
    if (Object.keys(next).length) return;
    setSending(true);
    try {
      let payload: unknown = { number: parsed.data, body };
      if (media && file) {
        const form = new FormData();
        form.set('number', parsed.data!);
        // Whaticket's form sends the file's name as the body.
        form.set('body', file.name);
        form.set('medias', file, file.name);
        payload = form;
      }
      await sendWith(token.trim(), payload);
      toast.success(t('messagesApi.sent'));
      setBody('');
      setFile(null);
    } catch (error) {
      showError(error);
    } finally {
      setSending(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={submit} data-testid={`api-form-${id}`}>
      <Stack spacing={2} direction={{ xs: 'column', md: 'row' }} sx={{ mb: 2 }}>
        <TextField
          fullWidth
          label={t('messagesApi.token')}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          error={Boolean(errors.token)}
          helperText={errors.token}
          slotProps={{ htmlInput: { 'data-testid': `api-${id}-token` } }}
        />
        <TextField
          fullWidth
          label={t('messagesApi.number')}
          value={number}
          onChange={(e) => setNumber(e.target.value)}
          error={Boolean(errors.number)}
          helperText={errors.number}
          slotProps={{ htmlInput: { 'data-testid': `api-${id}-number`, inputMode: 'numeric' } }}
        />
      </Stack>
      {media ? (
        <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center' }}>
          <Button variant="outlined" component="label">
            {t('messagesApi.chooseFile')}
            <input
              hidden
              type="file"
              data-testid="api-media-file"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </Button>
          <Typography
            variant="body2"
            color={errors.file ? 'error' : 'text.secondary'}
            sx={{ overflowWrap: 'anywhere' }}
          >
            {file?.name ?? errors.file ?? ''}
          </Typography>
        </Stack>
      ) : (
        <TextField
          fullWidth
          multiline
          minRows={3}
          label={t('messagesApi.message')}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          error={Boolean(errors.body)}
          helperText={errors.body}
          sx={{ mb: 2 }}
          slotProps={{ htmlInput: { 'data-testid': 'api-text-body' } }}
        />
      )}
      <Button type="submit" variant="contained" disabled={sending} data-testid={`api-${id}-send`}>
        {t('messagesApi.send')}
      </Button>
    </Box>
  );
}

function MessagesApi() {
  const { t } = useTranslation();
  const url = endpointUrl(SEND.path);
  const statusUrl = endpointUrl('/api/messages/{id}');
  const section = (title: string, children: ReactNode) => (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="h6" gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
  const field = (name: string, value: ReactNode) => (
    <Box sx={{ mb: 1 }}>
      <Typography variant="subtitle2">{t(`messagesApi.${name}`)}</Typography>
      <Code>{value}</Code>
    </Box>
  );
  return (
    <Box sx={{ p: 2, height: '100%', overflowY: 'auto' }} data-testid="messages-api-page">
      <PageHeader title={t('messagesApi.title')} />
      <Stack spacing={2}>
        {section(
          t('messagesApi.methods'),
          <Stack spacing={0.5}>
            <Typography>{t('messagesApi.textMethod')}</Typography>
            <Typography>{t('messagesApi.mediaMethod')}</Typography>
          </Stack>,
        )}
        {section(
          t('messagesApi.instructions'),
          <>
            <Typography variant="subtitle1">{t('messagesApi.notes')}</Typography>
            <Box component="ul" sx={{ mt: 0 }}>
              <li>{t('messagesApi.note1')}</li>
              <li>{t('messagesApi.note2')}</li>
              <li>{t('messagesApi.note3')}</li>
            </Box>
          </>,
        )}
        {section(
          t('messagesApi.textMethod'),
          <>
            {field('endpoint', url)}
            {field('method', 'POST')}
            {field(
              'headers',
              'Authorization: Bearer {token}\nContent-Type: application/json\nIdempotency-Key: {uma chave por mensagem}',
            )}
            {field('body', '{\n  "number": "5511999999999",\n  "body": "Sua mensagem"\n}')}
            {field('answer', '{ "messageId": 123, "messageIds": [123], "status": "queued" }')}
            <Divider sx={{ my: 2 }} />
            <Typography variant="subtitle1" gutterBottom>
              {t('messagesApi.textTest')}
            </Typography>
            <TestForm media={false} />
          </>,
        )}
        {section(
          t('messagesApi.mediaMethod'),
          <>
            {field('endpoint', url)}
            {field('method', 'POST')}
            {field('headers', 'Authorization: Bearer {token}\nContent-Type: multipart/form-data')}
            {field('body', 'number: 5511999999999\nbody: legenda\nmedias: arquivo (até 16 MB)')}
            <Divider sx={{ my: 2 }} />
            <Typography variant="subtitle1" gutterBottom>
              {t('messagesApi.mediaTest')}
            </Typography>
            <TestForm media />
          </>,
        )}
        {section(
          t('messagesApi.status'),
          <>
            {field('endpoint', statusUrl)}
            {field('method', 'GET')}
            {field(
              'answer',
              '{ "messageId": 123, "status": "delivered", "ack": 2, "error": null }',
            )}
          </>,
        )}
      </Stack>
    </Box>
  );
}

/** The external messages API page (secondary §2, /messages-api): only with useExternalApi. */
export default function MessagesApiPage() {
  return usePlanGate('useExternalApi') ? <MessagesApi /> : null;
}
