import Cancel from '@mui/icons-material/Cancel';
import CheckCircle from '@mui/icons-material/CheckCircle';
import Mic from '@mui/icons-material/Mic';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import {
  isRecordingKept,
  nextRecordingState,
  RECORDING_BITRATE_KBPS,
  type RecordingEvent,
  type RecordingState,
} from '@atende/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../ui/toast';
import { useErrorToast } from '../../ui/useErrorToast';

interface Props {
  disabled: boolean;
  /** Sends the recorded audio; resolves when the server took it. */
  onSend(file: File): Promise<void>;
  /** Told when recording starts or ends, so the text box can hide meanwhile. */
  onActive(active: boolean): void;
}

/**
 * Voice recording (core §4): idle → recording → sending. No mp3 encoder is installed, so the
 * browser's own recording (webm/opus at 128 kbps) is sent and the server converts it.
 */
export function VoiceRecorder({ disabled, onSend, onActive }: Props) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const [state, setState] = useState<RecordingState>('idle');
  const recorder = useRef<MediaRecorder | null>(null);
  const chunks = useRef<Blob[]>([]);
  const cancelled = useRef(false);

  const move = (event: RecordingEvent, size = 0) =>
    setState((current) => nextRecordingState(current, event, size));

  useEffect(() => onActive(state !== 'idle'), [state, onActive]);
  useEffect(() => () => recorder.current?.stream.getTracks().forEach((tr) => tr.stop()), []);

  const start = async () => {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const media = new MediaRecorder(stream, {
        audioBitsPerSecond: RECORDING_BITRATE_KBPS * 1000,
      });
      chunks.current = [];
      cancelled.current = false;
      media.ondataavailable = (e) => e.data.size && chunks.current.push(e.data);
      media.onstop = () => {
        stream.getTracks().forEach((track) => track.stop());
        if (cancelled.current) return;
        const blob = new Blob(chunks.current, { type: 'audio/webm' });
        if (!isRecordingKept(blob.size)) {
          toast.info(t('messages.recordingTooShort'));
          move('stop', blob.size);
          return;
        }
        move('stop', blob.size);
        onSend(new File([blob], `audio-${Date.now()}.webm`, { type: 'audio/webm' }))
          .then(() => move('sent'))
          .catch((error: unknown) => (showError(error), move('failed')));
      };
      recorder.current = media;
      media.start();
      move('start');
    } catch (error) {
      showError(error instanceof Error ? error.message : error);
    }
  };

  const stop = (cancel: boolean) => {
    cancelled.current = cancel;
    if (cancel) move('cancel');
    recorder.current?.stop();
  };

  if (state === 'idle') {
    return (
      <IconButton
        aria-label={t('messages.record')}
        disabled={disabled}
        onClick={() => void start()}
      >
        <Mic />
      </IconButton>
    );
  }
  if (state === 'sending') {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1 }}>
        <CircularProgress size={20} />
        <Typography variant="body2">{t('messages.sendingAudio')}</Typography>
      </Box>
    );
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }} data-testid="recording">
      <IconButton aria-label={t('messages.cancelRecording')} onClick={() => stop(true)}>
        <Cancel color="error" />
      </IconButton>
      <Typography variant="body2" color="error">
        {t('messages.recording')}
      </Typography>
      <IconButton aria-label={t('messages.stopRecording')} onClick={() => stop(false)}>
        <CheckCircle color="success" />
      </IconButton>
    </Box>
  );
}
