/**
 * The domains of the blocks' `urlUnfurl` patterns (`https://www.figma.com/file/*` → `www.figma.com` and
 * `figma.com`; a leading `*.` is dropped), lowercased and unique: what the `blockDomain` filter matches.
 */
export function blockDomainsOf(blocks: readonly { urlUnfurl?: string[] | undefined }[]): string[] {
  const domains = new Set<string>();
  for (const pattern of blocks.flatMap((b) => b.urlUnfurl ?? [])) {
    const host =
      /^(?:[a-z][a-z0-9+.-]*:)?\/\/([^/?#:]+)/i.exec(pattern.trim())?.[1] ?? /^([^/?#:]+)/.exec(pattern.trim())?.[1];
    if (!host) continue;
    const domain = host.toLowerCase().replace(/^(\*\.)+/, '');
    if (!/^[a-z0-9-_.]+$/.test(domain)) continue;
    domains.add(domain);
    if (domain.startsWith('www.')) domains.add(domain.slice(4));
  }
  return [...domains].sort();
}
