/**
 * A Google service account key file (the JSON file the Cloud console downloads): the account's
 * e-mail, its RSA private key and the token endpoint. Only those three fields are read; the key
 * is turned into a `KeyObject` at once, so the PEM text goes no further than this module.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { SitemapkitError } from '../../core/errors.js';
import { fsError } from '../../core/fs-errors.js';

/** Where real key files send their JWTs. */
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** The fields of a service account key file that sitemapkit reads. */
export interface ServiceAccountKey {
  /** `NAME@PROJECT.iam.gserviceaccount.com`: the address to add as a user of the property. */
  client_email: string;
  /** The PEM of the RSA private key (`-----BEGIN PRIVATE KEY-----…`). */
  private_key: string;
  /** The OAuth 2.0 token endpoint. @default GOOGLE_TOKEN_URI */
  token_uri?: string;
}

/** A key file read and checked: the private key is a `KeyObject`, never printed. */
export interface ServiceAccount {
  clientEmail: string;
  privateKey: KeyObject;
  tokenUri: string;
}

function bad(where: string, message: string, hint?: string): SitemapkitError {
  return new SitemapkitError('ERR_INPUT', message, {
    where,
    hint:
      hint ??
      'give the JSON key file of a service account (Google Cloud console: IAM → Service accounts → Keys → Add key → JSON)',
  });
}

/** Checks the fields of a parsed key file; `where` names it in messages. */
export function serviceAccountFrom(value: unknown, where: string): ServiceAccount {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw bad(where, `${where} is not a service account key file: it holds no JSON object`);
  const v = value as Record<string, unknown>;
  if (v['type'] !== undefined && v['type'] !== 'service_account') {
    throw bad(where, `${where} is a "${String(v['type'])}" credentials file, not a service account key file`);
  }
  const email = v['client_email'];
  if (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email))
    throw bad(where, `${where} has no client_email (the service account's e-mail address)`);
  const pem = v['private_key'];
  if (typeof pem !== 'string' || !pem.includes('PRIVATE KEY'))
    throw bad(where, `${where} has no private_key (a PEM "-----BEGIN PRIVATE KEY-----" block)`);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    // The cause would quote OpenSSL about the key; nothing of the key is worth repeating.
    throw bad(where, `${where}: its private_key is not a readable PEM private key`);
  }
  if (privateKey.asymmetricKeyType !== 'rsa')
    throw bad(where, `${where}: its private_key is not an RSA key (Google signs with RS256)`);
  const uri = v['token_uri'] ?? GOOGLE_TOKEN_URI;
  let tokenUri: URL;
  try {
    tokenUri = new URL(String(uri));
  } catch {
    throw bad(where, `${where}: its token_uri "${String(uri)}" is not a URL`);
  }
  if (tokenUri.protocol !== 'https:' && tokenUri.protocol !== 'http:')
    throw bad(where, `${where}: its token_uri "${String(uri)}" is not an http(s) URL`);
  return { clientEmail: email, privateKey, tokenUri: tokenUri.href };
}

/** Reads and checks a key file. Throws `ERR_INPUT` naming the file and what is wrong. */
export async function readServiceAccount(path: string): Promise<ServiceAccount> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw fsError(cause, { path, doing: `read the service account key file ${path}` });
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw bad(path, `${path} is not JSON, so not a service account key file`);
  }
  return serviceAccountFrom(value, path);
}
