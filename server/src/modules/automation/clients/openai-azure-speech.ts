import type { HttpCall } from './http.js';
import { failure, type Result } from './result.js';
import { SPEECH_MAX_CHARACTERS, speechCall, type Speech } from './openai.js';

/**
 * Text to speech with Azure Speech's REST API (issue 18 item 1): the prompt's `voiceKey` and
 * `voiceRegion`, one of the pt-BR neural voices, answered as Ogg/Opus
 * (`X-Microsoft-OutputFormat: ogg-16khz-16bit-mono-opus`), a WhatsApp voice note as is.
 * Never throws, never logs: a `Result`, the key redacted from any failure.
 */
export interface AzureSpeechConfig {
  key: string;
  region: string;
  /** Overrides `https://<region>.tts.speech.microsoft.com` (tests, sovereign clouds). */
  endpoint?: string;
  timeoutMs?: number;
}

export const AZURE_OGG_FORMAT = 'ogg-16khz-16bit-mono-opus';

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) =>
    c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : c === "'" ? '&apos;' : '&quot;',
  );

/** The SSML document of one utterance. */
export function ssmlOf(text: string, voice: string): string {
  const lang = voice.split('-').slice(0, 2).join('-') || 'pt-BR';
  return (
    `<speak version='1.0' xml:lang='${escapeXml(lang)}'>` +
    `<voice name='${escapeXml(voice)}'>${escapeXml(text)}</voice></speak>`
  );
}

export function createAzureSpeechClient(config: AzureSpeechConfig) {
  const base =
    config.endpoint?.replace(/\/+$/, '') ??
    `https://${encodeURIComponent(config.region)}.tts.speech.microsoft.com`;
  const secrets = [config.key];

  async function speak(text: string, voice: string): Promise<Result<Speech>> {
    if (text.length > SPEECH_MAX_CHARACTERS) {
      return failure(
        'openai',
        'ERR_INTEGRATION_REJECTED',
        `speech input over ${SPEECH_MAX_CHARACTERS} characters`,
        secrets,
      );
    }
    const call: HttpCall = {
      service: 'openai',
      url: `${base}/cognitiveservices/v1`,
      headers: {
        'ocp-apim-subscription-key': config.key,
        'content-type': 'application/ssml+xml',
        'x-microsoft-outputformat': AZURE_OGG_FORMAT,
        'user-agent': 'atende',
      },
      body: ssmlOf(text, voice),
      timeoutMs: config.timeoutMs ?? 30_000,
      secrets,
    };
    return speechCall(call);
  }

  return { speak };
}
