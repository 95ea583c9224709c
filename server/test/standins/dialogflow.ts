import { randomBytes, verify, type KeyObject } from 'node:crypto';
import { jsonOf, startStandin, type Answer } from './server.js';

/**
 * A stand-in for Google's OAuth token endpoint and Dialogflow ES's REST `detectIntent`.
 *
 * `POST /token` takes a JWT-bearer grant and checks the assertion as Google does: RS256 over
 * `header.claims` verified with the service account's public key, `iss` the account's e-mail,
 * `aud` the token URL, a live `exp`. It issues random tokens that live `tokenLifetimeS`.
 * `POST /v2/projects/{p}/agent/sessions/{s}:detectIntent` needs one of those tokens and the
 * account's project; it matches the text against the test's intents (lower-case substring).
 */
export interface StandinIntent {
  displayName: string;
  phrases: string[];
  messages: unknown[];
  endInteraction?: boolean;
}

export async function startDialogflowStandin(options: {
  projectId: string;
  clientEmail: string;
  publicKey: KeyObject;
  intents: StandinIntent[];
  tokenLifetimeS?: number;
  apiDisabled?: boolean;
}) {
  const tokens = new Map<string, number>();
  const exchanges: { header: any; claims: any }[] = [];
  const googleError = (code: number, status: string, message: string): Answer => ({
    status: code,
    body: { error: { code, message, status } },
  });
  let url = '';

  function token(body: string): Answer {
    const form = new URLSearchParams(body);
    const refuse = (description: string): Answer => ({
      status: 400,
      body: { error: 'invalid_grant', error_description: description },
    });
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      return {
        status: 400,
        body: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' },
      };
    }
    const parts = (form.get('assertion') ?? '').split('.');
    if (parts.length !== 3) return refuse('Invalid JWT');
    const [h, c, s] = parts as [string, string, string];
    const header = JSON.parse(Buffer.from(h, 'base64url').toString());
    const claims = JSON.parse(Buffer.from(c, 'base64url').toString());
    if (header.alg !== 'RS256') return refuse('Invalid JWT algorithm');
    if (
      !verify(
        'RSA-SHA256',
        Buffer.from(`${h}.${c}`),
        options.publicKey,
        Buffer.from(s, 'base64url'),
      )
    ) {
      return refuse('Invalid JWT Signature.');
    }
    const now = Math.floor(Date.now() / 1000);
    if (claims.iss !== options.clientEmail) return refuse('Invalid issuer');
    if (claims.aud !== `${url}/token`) return refuse('Invalid audience');
    if (!(claims.exp > now) || claims.iat > now + 60)
      return refuse('Invalid JWT: Token must be a short-lived token');
    if (!String(claims.scope).includes('dialogflow')) return refuse('Invalid scope');
    exchanges.push({ header, claims });
    const accessToken = `ya29.${randomBytes(24).toString('base64url')}`;
    const lifetime = options.tokenLifetimeS ?? 3599;
    tokens.set(accessToken, Date.now() + lifetime * 1000);
    return {
      status: 200,
      body: { access_token: accessToken, expires_in: lifetime, token_type: 'Bearer' },
    };
  }

  function detect(project: string, session: string, authorization: string, body: any): Answer {
    const bearer = authorization.replace(/^Bearer /, '');
    const until = tokens.get(bearer);
    if (!until || until < Date.now()) {
      return googleError(
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token.',
      );
    }
    if (project !== options.projectId) {
      return googleError(
        403,
        'PERMISSION_DENIED',
        `IAM permission 'dialogflow.sessions.detectIntent' on 'projects/${project}/agent' denied.`,
      );
    }
    if (options.apiDisabled) {
      return googleError(
        403,
        'PERMISSION_DENIED',
        `Dialogflow API has not been used in project ${project} before or it is disabled.`,
      );
    }
    const text: string | undefined = body?.queryInput?.text?.text;
    const languageCode: string | undefined = body?.queryInput?.text?.languageCode;
    if (!text || !languageCode) return googleError(400, 'INVALID_ARGUMENT', 'Invalid query input.');
    const said = text.toLowerCase();
    const intent = options.intents.find((i) =>
      i.phrases.some((p) => said.includes(p.toLowerCase())),
    );
    const queryResult = intent
      ? {
          queryText: text,
          languageCode,
          fulfillmentMessages: intent.messages,
          intent: {
            name: `projects/${project}/agent/intents/${intent.displayName}`,
            displayName: intent.displayName,
            ...(intent.endInteraction ? { endInteraction: true } : {}),
          },
          intentDetectionConfidence: 0.9,
          ...(intent.endInteraction ? { diagnosticInfo: { end_conversation: true } } : {}),
        }
      : {
          queryText: text,
          languageCode,
          action: 'input.unknown',
          fulfillmentText: `[${languageCode}] Não entendi.`,
          fulfillmentMessages: [{ text: { text: [`[${languageCode}] Não entendi.`] } }],
          intent: { displayName: 'Default Fallback Intent', isFallback: true },
          intentDetectionConfidence: 1,
        };
    return { status: 200, body: { responseId: `${session}-${Date.now()}`, queryResult } };
  }

  const standin = await startStandin((request) => {
    if (request.method === 'POST' && request.path === '/token')
      return token(request.body.toString());
    const m = /^\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/:]+):detectIntent$/.exec(
      request.path,
    );
    if (request.method === 'POST' && m) {
      return detect(
        decodeURIComponent(m[1]!),
        decodeURIComponent(m[2]!),
        String(request.headers.authorization ?? ''),
        jsonOf(request),
      );
    }
    return googleError(404, 'NOT_FOUND', 'Not found');
  });
  url = standin.url;
  return { ...standin, tokenUri: `${standin.url}/token`, exchanges, tokens };
}
