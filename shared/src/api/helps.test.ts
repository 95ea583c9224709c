import { describe, expect, it } from 'vitest';
import { helpInput, youtubeIdOf } from './helps.js';

describe('video code: a YouTube id', () => {
  it.each([
    ['dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['  dQw4w9WgXcQ ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?feature=share&v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?t=3', 'dQw4w9WgXcQ'],
    ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
  ])('%j → %j', (input, id) => {
    expect(youtubeIdOf(input)).toBe(id);
    expect(helpInput.parse({ title: 't', video: input }).video).toBe(id);
  });

  it.each([
    '',
    'dQw4w9WgXc',
    'dQw4w9WgXcQx',
    'dQw4w9 gXcQ',
    'https://vimeo.com/12345678901',
    'javascript:alert(1)',
  ])('refuses %j', (input) => {
    expect(helpInput.safeParse({ title: 't', video: input }).success).toBe(false);
  });
});
