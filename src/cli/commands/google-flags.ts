/**
 * The flags `submit --engine google` and `status --engine google` share: the property, the key
 * file (`--credentials`, or `GOOGLE_APPLICATION_CREDENTIALS` as Google's own tools read it) and
 * the API root, turned into the library's options bag once.
 */
import type { Command } from 'commander';
import type { GoogleOptions } from '../../submit/google/client.js';
import { checkSite } from '../../submit/google/site.js';
import { UsageError } from '../exit.js';
import { type AddressFlags, addressPolicyOf } from '../flags.js';
import { checkInputFile } from '../paths.js';

export interface GoogleFlags extends AddressFlags {
  site?: string;
  credentials?: string;
  googleApiRoot?: string;
}

export const SITE_HELP =
  'the property: https://www.example.com/ (URL prefix, with the slash) or sc-domain:example.com (Google)';

/** Adds `--credentials` and `--google-api-root` to a command. */
export function addGoogleOptions(command: Command): Command {
  return command
    .option(
      '--credentials <file>',
      'Google service account key file (JSON); default: $GOOGLE_APPLICATION_CREDENTIALS',
    )
    .option(
      '--google-api-root <url>',
      'root of the Search Console APIs, for a proxy or a test double (default: https://www.googleapis.com/ and https://searchconsole.googleapis.com/)',
    );
}

/** The key file: `--credentials`, else `GOOGLE_APPLICATION_CREDENTIALS`; a usage error when neither. */
export function credentialsPath(flags: GoogleFlags, env: NodeJS.ProcessEnv = process.env): string {
  const path = flags.credentials ?? env['GOOGLE_APPLICATION_CREDENTIALS'];
  if (path === undefined || path === '')
    throw new UsageError(
      '--engine google needs --credentials FILE (a service account key file), or GOOGLE_APPLICATION_CREDENTIALS set to one',
    );
  return path;
}

/** Checks what can be checked before any engine runs: the property and the key file's presence. */
export async function checkGoogleFlags(flags: GoogleFlags): Promise<void> {
  if (flags.site === undefined)
    throw new UsageError(
      '--engine google needs --site: https://www.example.com/ (URL-prefix property) or sc-domain:example.com',
    );
  try {
    checkSite(flags.site);
  } catch (e) {
    throw new UsageError(`--site: ${(e as Error).message}`);
  }
  const path = credentialsPath(flags);
  await checkInputFile(
    path,
    'read the service account key file',
    'give the JSON key file of a service account',
  );
}

/** The library's options from the flags. */
export function googleOptions(flags: GoogleFlags, signal: AbortSignal): GoogleOptions {
  const addressPolicy = addressPolicyOf(flags);
  return {
    site: flags.site!,
    credentials: credentialsPath(flags),
    ...(flags.googleApiRoot === undefined ? {} : { apiRoot: flags.googleApiRoot }),
    ...(addressPolicy === undefined ? {} : { addressPolicy }),
    signal,
  };
}
