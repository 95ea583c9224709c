import {
  errorText,
  isErrorCode,
  type ContactListImportAnswer,
  type Language,
} from '@atende/shared';
import Download from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import { useTranslation } from 'react-i18next';
import './i18n';

/** The server's row limit of one import (server: IMPORT_MAX_ROWS), for its error text. */
export const IMPORT_MAX_ROWS = 50_000;

/** How far an import is, 0 to 100: rows written plus rows folded or refused, of all rows. */
export const importPercent = (job: ContactListImportAnswer): number =>
  job.total === 0
    ? 0
    : Math.min(100, Math.round(((job.processed + job.duplicates + job.invalid) / job.total) * 100));

/** The banner of the list's current import: a bar while it runs, the outcome when it ends. */
export function ImportProgress(props: {
  job: ContactListImportAnswer;
  onReport(): void;
  onClose(): void;
}) {
  const { job } = props;
  const { t, i18n } = useTranslation();
  const file = job.fileName;
  if (job.status === 'queued' || job.status === 'running') {
    const counted = job.status === 'running' && job.total > 0;
    return (
      <Box sx={{ px: 2, py: 1 }} data-testid="import-progress" data-status={job.status}>
        <Box sx={{ fontSize: 14, mb: 0.5 }}>
          {counted
            ? t('contactListItems.progressRunning', {
                file,
                done: job.processed + job.duplicates + job.invalid,
                total: job.total,
              })
            : t('contactListItems.progressQueued', { file })}
        </Box>
        <LinearProgress
          variant={counted ? 'determinate' : 'indeterminate'}
          value={counted ? importPercent(job) : undefined}
          aria-label={t('contactListItems.importTitle')}
        />
      </Box>
    );
  }
  const failed = job.status === 'failed';
  const error = failed
    ? isErrorCode(job.error)
      ? errorText(job.error, i18n.language as Language, { max: IMPORT_MAX_ROWS })
      : (job.error ?? '')
    : '';
  return (
    <Alert
      severity={failed ? 'error' : job.invalid > 0 ? 'warning' : 'success'}
      onClose={props.onClose}
      sx={{ mx: 2, my: 1 }}
      data-testid="import-progress"
      data-status={job.status}
      action={
        !failed && job.invalid + job.duplicates > 0 ? (
          <Button color="inherit" size="small" startIcon={<Download />} onClick={props.onReport}>
            {t('contactListItems.errorReport')}
          </Button>
        ) : undefined
      }
    >
      {failed
        ? t('contactListItems.progressFailed', { file, error })
        : t('contactListItems.progressDone', {
            file,
            created: job.created,
            updated: job.updated,
            duplicates: job.duplicates,
            invalid: job.invalid,
          })}
    </Alert>
  );
}
