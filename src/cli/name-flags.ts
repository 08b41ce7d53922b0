/**
 * `generate --index-name NAME --child-name PATTERN --always-index`: the writer's `names` and
 * `alwaysIndex` from the command line, for a site that must keep the names another generator gave
 * its files (robots.txt lines and Search Console entries name them).
 */
import type { Command } from 'commander';
import { ADDED_EXTENSION, FILE_NAME } from '../writer/file-names.js';
import type { FileNames } from '../writer/options.js';
import { UsageError } from './exit.js';

export interface NameFlags {
  indexName?: string;
  childName?: string;
  alwaysIndex?: boolean;
}

export function addNameOptions(cmd: Command): Command {
  return cmd
    .option('--index-name <name>', 'the entry point’s name without extension (default: sitemap)')
    .option(
      '--child-name <pattern>',
      'the split files’ names without extension: {n} counts from 0, {section} is the entry’s section (e.g. sitemap-{n})',
    )
    .option('--always-index', 'write an index even when one file holds every URL');
}

const NAME_RULE = '1–100 of A-Z, a-z, 0-9, ".", "_" and "-", without extension (.xml and .gz are added)';

function checkName(flag: string, name: string, given: string): void {
  if (!FILE_NAME.test(name) || ADDED_EXTENSION.test(name))
    throw new UsageError(`${flag} must give a file name of ${NAME_RULE}, not "${given}"`);
}

/** The writer's options for the flags; refused with a store, whose files keep the store's own names. */
export function nameWriterOptions(
  flags: NameFlags,
  store: string | undefined,
): { names?: FileNames; alwaysIndex?: boolean } {
  const given = (['indexName', 'childName', 'alwaysIndex'] as const).filter((k) => flags[k] !== undefined);
  if (given.length === 0) return {};
  if (store !== undefined) {
    throw new UsageError(
      '--index-name, --child-name and --always-index cannot be used with --store (a store names its files itself, so that they stay stable)',
    );
  }
  const names: FileNames = {};
  if (flags.indexName !== undefined) {
    checkName('--index-name', flags.indexName, flags.indexName);
    names.index = flags.indexName;
  }
  const pattern = flags.childName;
  if (pattern !== undefined) {
    if (!pattern.includes('{n}'))
      throw new UsageError(
        `--child-name needs {n} (the file's number from 0), as in sitemap-{n}; got "${pattern}"`,
      );
    const hasSection = pattern.includes('{section}');
    checkName('--child-name', pattern.replaceAll('{n}', '0').replaceAll('{section}', 'a'), pattern);
    // Without {section}, a section's files are told apart by the section before the number.
    names.child = (n, section) =>
      hasSection
        ? pattern.replaceAll('{n}', String(n)).replaceAll('{section}', section)
        : pattern.replaceAll('{n}', section === '' ? String(n) : `${section}-${n}`);
  }
  return {
    ...(flags.indexName !== undefined || pattern !== undefined ? { names } : {}),
    ...(flags.alwaysIndex === true && { alwaysIndex: true }),
  };
}
