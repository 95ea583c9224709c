/** Voice recording (core §4): idle → recording → sending; short recordings are discarded. */
export const MIN_RECORDING_BYTES = 10_000;
export const RECORDING_BITRATE_KBPS = 128;

export type RecordingState = 'idle' | 'recording' | 'sending';

/** A recording smaller than 10000 bytes is discarded instead of sent. */
export const isRecordingKept = (sizeBytes: number): boolean => sizeBytes >= MIN_RECORDING_BYTES;

export type RecordingEvent = 'start' | 'stop' | 'cancel' | 'sent' | 'failed';

/** The next state; `stop` with a too-short recording goes straight back to idle. */
export function nextRecordingState(
  state: RecordingState,
  event: RecordingEvent,
  sizeBytes = 0,
): RecordingState {
  switch (state) {
    case 'idle':
      return event === 'start' ? 'recording' : 'idle';
    case 'recording':
      if (event === 'cancel') return 'idle';
      if (event === 'stop') return isRecordingKept(sizeBytes) ? 'sending' : 'idle';
      return 'recording';
    case 'sending':
      return event === 'sent' || event === 'failed' ? 'idle' : 'sending';
  }
}
