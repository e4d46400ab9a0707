// Reading network tools (G14c, E12, E26): the hosts `curl` and `wget` reach,
// including proxies and address overrides, and the files they write. An
// option the reader does not know might name a host, so it makes the hosts
// unknown.

import type { Word } from '../shell/ast.js';
import type { Effect, ExtractContext } from './effects.js';
import { effect, openArgs, writeEffects } from './effects.js';
import { operandsAndOptions } from './options.js';
import type { SeenOption } from './options.js';
import type { Extraction } from './programs.js';
import type { OptionSpec } from './table.js';

const PROXY_VARIABLES =
  /^(https?_proxy|HTTPS?_PROXY|all_proxy|ALL_PROXY|ftp_proxy|FTP_PROXY|socks_proxy|SOCKS_PROXY)$/;

/**
 * The host a remote location names, as git, scp, rsync and ssh write it:
 * a URL (read as a WHATWG parser reads it, E12), `[user@]host:path`, or
 * `host::module`; `undefined` when it is local (a path, `file://`), null when
 * it cannot be told (`ext::…` and other transports name a program).
 */
export function remoteHost(text: string): string | null | undefined {
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(text)) return null;
  const url = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(text);
  if (url !== null) return (url[1] ?? '').toLowerCase() === 'file' ? undefined : text;
  if (text.startsWith('/') || text.startsWith('.') || text.startsWith('~')) return undefined;
  const scp = /^(?:[^@/]+@)?(\[[^\]]+\]|[^:/]+):/.exec(text);
  if (scp !== null) return scp[1] ?? null;
  return undefined;
}

/** networkEgress to the proxies a command is given (null: a value that is not literal). */
export function proxyEffects(values: readonly (string | null)[]): Effect[] {
  if (values.length === 0) return [];
  const hosts = values.filter((value) => value !== '');
  if (hosts.length === 0) return [];
  return [effect('networkEgress', { hosts: hosts.includes(null) ? null : (hosts as string[]) })];
}

/** The proxies the command's environment assignments name (`HTTPS_PROXY=… curl …`). */
export function assignedProxies(ctx: ExtractContext): (string | null)[] {
  return [...ctx.assigned]
    .filter((name) => PROXY_VARIABLES.test(name))
    .map((name) => ctx.environment?.get(name) ?? null);
}

/**
 * Adds the proxies to a networkEgress effect: the request reaches them too.
 * A proxy that is not known leaves the hosts open, the named ones still certain (E42).
 */
function withProxies(item: Effect, proxies: readonly (string | null)[]): Effect {
  if (proxies.length === 0 || item.cls !== 'networkEgress') return item;
  const named = proxies.filter((p): p is string => p !== null && p !== '');
  const hosts = item.args.hosts;
  if (hosts === null || hosts === undefined || proxies.includes(null)) {
    const certain = [...(hosts ?? []), ...(item.args.known?.hosts ?? []), ...named];
    return openArgs(effect('networkEgress', { hosts: certain }));
  }
  return effect('networkEgress', { hosts: [...hosts, ...named] });
}

const CURL: OptionSpec = {
  flags: [
    '-s',
    '--silent',
    '-S',
    '--show-error',
    '-L',
    '--location',
    '-f',
    '--fail',
    '--fail-with-body',
    '-k',
    '--insecure',
    '-v',
    '--verbose',
    '-i',
    '--include',
    '-I',
    '--head',
    '-O',
    '--remote-name',
    '-J',
    '--remote-header-name',
    '-N',
    '--no-buffer',
    '-#',
    '--progress-bar',
    '-q',
    '-g',
    '--globoff',
    '-G',
    '--get',
    '-j',
    '--junk-session-cookies',
    '-l',
    '--list-only',
    '-n',
    '--netrc',
    '-R',
    '--remote-time',
    '-Z',
    '--parallel',
    '-4',
    '--ipv4',
    '-6',
    '--ipv6',
    '-0',
    '--http1.0',
    '--http1.1',
    '--http2',
    '--http3',
    '--compressed',
    '--location-trusted',
    '--create-dirs',
    '--no-progress-meter',
    '--retry-all-errors',
    '--tcp-nodelay',
    '-a',
    '--append',
    '-B',
    '--use-ascii',
    '-M',
    '--manual',
    '-V',
    '--version',
    '-h',
    '--help',
    '-p',
    '--proxytunnel',
    '--raw',
    '--ssl',
    '--ssl-reqd',
    '--tlsv1.2',
    '--tlsv1.3',
    '--no-keepalive',
    '--remote-name-all',
    '--digest',
    '--basic',
    '--ntlm',
    '--negotiate',
    '--anyauth',
    '--disable',
  ],
  values: [
    '-A',
    '--user-agent',
    '-b',
    '--cookie',
    '-c',
    '--cookie-jar',
    '-C',
    '--continue-at',
    '-d',
    '--data',
    '--data-ascii',
    '--data-binary',
    '--data-raw',
    '--data-urlencode',
    '-D',
    '--dump-header',
    '-e',
    '--referer',
    '-E',
    '--cert',
    '--cert-type',
    '--key',
    '--key-type',
    '--pass',
    '--cacert',
    '--capath',
    '-F',
    '--form',
    '--form-string',
    '-H',
    '--header',
    '-m',
    '--max-time',
    '--connect-timeout',
    '-o',
    '--output',
    '--output-dir',
    '-r',
    '--range',
    '-T',
    '--upload-file',
    '-u',
    '--user',
    '-U',
    '--proxy-user',
    '-w',
    '--write-out',
    '-X',
    '--request',
    '-Y',
    '--speed-limit',
    '-y',
    '--speed-time',
    '-z',
    '--time-cond',
    '--retry',
    '--retry-delay',
    '--retry-max-time',
    '--resolve',
    '--connect-to',
    '--interface',
    '--limit-rate',
    '--max-filesize',
    '--max-redirs',
    '--oauth2-bearer',
    '--trace',
    '--trace-ascii',
    '--stderr',
    '--libcurl',
    '--unix-socket',
    '--aws-sigv4',
    '-Q',
    '--quote',
    '--json',
    '--variable',
    '--expand-url',
    '-x',
    '--proxy',
    '--url',
    '-K',
    '--config',
    '--preproxy',
    '--socks4',
    '--socks4a',
    '--socks5',
    '--socks5-hostname',
    '--doh-url',
    '--noproxy',
    '-t',
    '--telnet-option',
  ],
};

/** Options whose value names a host or URL the request reaches. */
const CURL_HOST_OPTIONS = new Set([
  '--url',
  '-x',
  '--proxy',
  '--preproxy',
  '--socks4',
  '--socks4a',
  '--socks5',
  '--socks5-hostname',
  '--doh-url',
  '--expand-url',
]);
const CURL_WRITES = new Set([
  '-o',
  '--output',
  '--output-dir',
  '-D',
  '--dump-header',
  '-c',
  '--cookie-jar',
  '--trace',
  '--trace-ascii',
  '--stderr',
  '--libcurl',
]);

/** Files named by the given options (`-` is standard output, not a file). */
function writtenFiles(
  seen: readonly SeenOption[],
  options: ReadonlySet<string>,
  ctx: ExtractContext,
): Effect[] {
  const files = seen
    .filter((o) => options.has(o.name) && o.value !== null && o.value.value !== '-')
    .map((o) => o.value as Word);
  return writeEffects(files, ctx);
}

export function curl(words: readonly Word[], ctx: ExtractContext): Extraction {
  const { operands, seen, unknown } = operandsAndOptions(words, 1, CURL);
  const effects = writtenFiles(seen, CURL_WRITES, ctx);
  const opaque = unknown.length > 0 || seen.some((o) => o.name === '-K' || o.name === '--config');
  if (opaque) return { effects: [effect('networkEgress', { hosts: null }), ...effects] };
  const proxies = assignedProxies(ctx);
  const sources: (Word | null)[] = [...operands];
  const extra: string[] = [];
  for (const option of seen) {
    if (CURL_HOST_OPTIONS.has(option.name)) sources.push(option.value);
    if ((option.name === '--resolve' || option.name === '--connect-to') && option.value !== null) {
      // `--resolve HOST:PORT:ADDR[,ADDR]` and `--connect-to H1:P1:H2:P2` send the request elsewhere.
      if (!option.value.literal)
        return { effects: [effect('networkEgress', { hosts: null }), ...effects] };
      const parts = option.value.value.split(':');
      const targets =
        option.name === '--resolve' ? parts.slice(2).join(':').split(',') : [parts[2] ?? ''];
      for (const target of targets) if (target !== '') extra.push(target.replace(/^\[|\]$/g, ''));
    }
  }
  const reached = reaching(hostsOf(sources), extra);
  return { effects: [withProxies(reached, proxies), ...effects] };
}

const WGET: OptionSpec = {
  flags: [
    '-q',
    '--quiet',
    '-v',
    '--verbose',
    '-nv',
    '--no-verbose',
    '-c',
    '--continue',
    '-N',
    '--timestamping',
    '-r',
    '--recursive',
    '-np',
    '--no-parent',
    '-nd',
    '--no-directories',
    '-nc',
    '--no-clobber',
    '-x',
    '--force-directories',
    '-k',
    '--convert-links',
    '-m',
    '--mirror',
    '-p',
    '--page-requisites',
    '-S',
    '--server-response',
    '-b',
    '--background',
    '--spider',
    '--no-check-certificate',
    '-4',
    '--inet4-only',
    '-6',
    '--inet6-only',
    '--content-disposition',
    '--trust-server-names',
    '-H',
    '--span-hosts',
    '-E',
    '--adjust-extension',
    '-F',
    '--force-html',
    '-h',
    '--help',
    '-V',
    '--version',
  ],
  values: [
    '-O',
    '--output-document',
    '-o',
    '--output-file',
    '-a',
    '--append-output',
    '-P',
    '--directory-prefix',
    '-t',
    '--tries',
    '-T',
    '--timeout',
    '-U',
    '--user-agent',
    '--header',
    '--post-data',
    '--post-file',
    '--user',
    '--password',
    '-e',
    '--execute',
    '-l',
    '--level',
    '-w',
    '--wait',
    '-Q',
    '--quota',
    '--limit-rate',
    '-A',
    '--accept',
    '-R',
    '--reject',
    '-D',
    '--domains',
    '-B',
    '--base',
    '--method',
    '--body-data',
    '--body-file',
    '-i',
    '--input-file',
    '--bind-address',
  ],
};

const WGET_WRITES = new Set([
  '-O',
  '--output-document',
  '-o',
  '--output-file',
  '-a',
  '--append-output',
  '-P',
  '--directory-prefix',
]);

export function wget(words: readonly Word[], ctx: ExtractContext): Extraction {
  const { operands, seen, unknown } = operandsAndOptions(words, 1, WGET);
  const effects = writtenFiles(seen, WGET_WRITES, ctx);
  const opaque =
    unknown.length > 0 ||
    seen.some((o) => ['-i', '--input-file', '-e', '--execute'].includes(o.name));
  const reached = opaque ? effect('networkEgress', { hosts: null }) : reaching(hostsOf(operands));
  return { effects: [withProxies(reached, assignedProxies(ctx)), ...effects] };
}

/**
 * Hosts named by URL operands, or null when none is given. A word that is not
 * literal, or a URL pattern (`{a,b}`, `[1-3]`), leaves the list open; the
 * other URLs are still certainly reached (E42).
 */
function hostsOf(sources: readonly (Word | null)[]): { hosts: string[]; open: boolean } | null {
  if (sources.length === 0) return null;
  const hosts: string[] = [];
  let open = false;
  for (const source of sources) {
    if (source === null || !source.literal || /[{}[\]]/.test(source.value)) open = true;
    else hosts.push(source.value);
  }
  return { hosts, open };
}

/** networkEgress to these hosts; an open list keeps them as certainly reached. */
function reaching(
  found: { hosts: string[]; open: boolean } | null,
  extra: readonly string[] = [],
): Effect {
  if (found === null) return effect('networkEgress', { hosts: null });
  const hosts = [...found.hosts, ...extra];
  const item = effect('networkEgress', { hosts });
  return found.open ? openArgs(item) : item;
}

/** The option tables curl's and wget's extractors read their options with. */
export const NETWORK_OPTIONS: Readonly<{ curl: OptionSpec; wget: OptionSpec }> = {
  curl: CURL,
  wget: WGET,
};
