import { createHash } from 'node:crypto';

/** The bundled stylesheet's bytes and hash; read from the package's assets on first use. */
export async function bundledXsl(): Promise<{ data: Uint8Array; sha256: string }> {
  const { readFile } = await import('node:fs/promises');
  const data = await readFile(new URL('../../assets/sitemap.xsl', import.meta.url));
  return { data, sha256: createHash('sha256').update(data).digest('hex') };
}
