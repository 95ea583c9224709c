import { describe, expect, it } from 'vitest';
import {
  isRecordingKept,
  MIN_RECORDING_BYTES,
  nextRecordingState,
  RECORDING_BITRATE_KBPS,
} from './recording.js';

describe('voice recording (core §4, §9)', () => {
  it.each([
    [0, false],
    [9_999, false],
    [10_000, true],
    [250_000, true],
  ])('%i bytes kept: %s', (size, kept) => {
    expect(isRecordingKept(size)).toBe(kept);
  });

  it('constants', () => {
    expect(MIN_RECORDING_BYTES).toBe(10_000);
    expect(RECORDING_BITRATE_KBPS).toBe(128);
  });

  it.each([
    ['idle', 'start', 0, 'recording'],
    ['idle', 'stop', 0, 'idle'],
    ['recording', 'stop', 9_999, 'idle'],
    ['recording', 'stop', 10_000, 'sending'],
    ['recording', 'cancel', 50_000, 'idle'],
    ['sending', 'start', 0, 'sending'],
    ['sending', 'sent', 0, 'idle'],
    ['sending', 'failed', 0, 'idle'],
  ] as const)('%s --%s(%i)--> %s', (state, event, size, expected) => {
    expect(nextRecordingState(state, event, size)).toBe(expected);
  });
});
