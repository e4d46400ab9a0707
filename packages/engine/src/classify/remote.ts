// Programs that reach other hosts (G14c, E12, E26, E27): each is
// networkEgress with the hosts its arguments name — remote shells and copies
// (`ssh`, `scp`, `sftp`, `rsync`), raw sockets (`nc`, `socat`, `telnet`),
// downloaders (`aria2c`, HTTPie's `http`/`xh`), `openssl s_client`, name
// lookups (`dig`, `host`, `ping`, …), image registries (`docker pull|push`)
// and package registries named by a flag or variable. An option the reader
// does not know may name a host, so it makes the hosts unknown; an option
// that names a program to run makes the command unparseable, and the hosts
// it certainly reaches still count (E42).

import type { Word } from '../shell/ast.js';
import type { Effect, ExtractContext } from './effects.js';
import { effect, openArgs, pathsOf, writeEffects } from './effects.js';
import { assignedProxies, proxyEffects, remoteHost } from './network.js';
import { operandsAndOptions } from './options.js';
import type { SeenOption } from './options.js';
import type { Extraction } from './programs.js';
import type { OptionSpec } from './table.js';

const NONE: Extraction = { effects: [] };
const UNKNOWN_HOSTS: Effect = effect('networkEgress', { hosts: null });

function egress(hosts: readonly (string | null)[]): Effect {
  if (hosts.length === 0 || hosts.includes(null)) {
    const known = hosts.filter((h): h is string => h !== null);
    return known.length === 0 ? UNKNOWN_HOSTS : openArgs(effect('networkEgress', { hosts: known }));
  }
  return effect('networkEgress', { hosts: hosts as string[] });
}

/** The host of `[user@]host`, `[user@]host:port` or `ssh://user@host:port`; null when not literal. */
function hostOf(word: Word | null | undefined): string | null {
  if (word === null || word === undefined || !word.literal || word.value === '') return null;
  const text = word.value;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text)) return text;
  const at = text.lastIndexOf('@');
  return at >= 0 ? text.slice(at + 1) : text;
}

/** `host:port`, `[v6]:port`, `bind:port:host:hostport`: the hosts a forwarding names. */
function forwardHosts(word: Word | null): (string | null)[] {
  if (word === null || !word.literal) return [null];
  const parts = word.value.match(/\[[^\]]*\]|[^:]+/g) ?? [];
  // `[bind:]port:host:hostport` (-L, -R) or `[bind:]port` (-D): the host stands before the last port.
  if (parts.length >= 3) return [(parts[parts.length - 2] as string).replace(/^\[|\]$/g, '')];
  return [];
}

const SSH: OptionSpec = {
  flags: [
    '-4',
    '-6',
    '-A',
    '-a',
    '-C',
    '-f',
    '-G',
    '-g',
    '-K',
    '-k',
    '-M',
    '-N',
    '-n',
    '-q',
    '-s',
    '-T',
    '-t',
    '-V',
    '-v',
    '-X',
    '-x',
    '-Y',
    '-y',
  ],
  values: [
    '-B',
    '-b',
    '-c',
    '-D',
    '-E',
    '-e',
    '-F',
    '-I',
    '-i',
    '-J',
    '-L',
    '-l',
    '-m',
    '-O',
    '-o',
    '-p',
    '-P',
    '-Q',
    '-R',
    '-S',
    '-W',
    '-w',
  ],
};

/** `-o` settings of ssh (and scp, sftp, rsync's ssh) that run a local program. */
const SSH_RUNNING_OPTIONS =
  /^(proxycommand|localcommand|permitlocalcommand|knownhostscommand|match|include|pkcs11provider|securitykeyprovider|sshaskpass|controlpath|remotecommand)\b/i;
/** `-o` settings that send the connection to another host. */
const SSH_HOST_OPTIONS = /^(hostname|proxyjump)\s*=?\s*(.*)$/i;

interface SshReading {
  readonly hosts: (string | null)[];
  readonly runs: string | null;
  /** The destination's host is replaced (`-o Hostname=…`). */
  readonly renamed: boolean;
}

/** What ssh-style options (`-o`, `-J`, `-F`, `-L`, …) say about hosts and programs. */
function sshOptions(seen: readonly SeenOption[]): SshReading {
  const hosts: (string | null)[] = [];
  let runs: string | null = null;
  let renamed = false;
  for (const option of seen) {
    const value = option.value;
    switch (option.name) {
      case '-o': {
        if (value === null || !value.literal) {
          runs ??= 'an ssh option that is not literal';
          break;
        }
        if (SSH_RUNNING_OPTIONS.test(value.value)) {
          runs ??= `the ssh option \`${value.value.split(/[\s=]/)[0] ?? ''}\` runs a local program`;
          break;
        }
        const host = SSH_HOST_OPTIONS.exec(value.value);
        if (host !== null) {
          for (const jump of (host[2] ?? '').split(',')) hosts.push(jump === '' ? null : jump);
          if ((host[1] ?? '').toLowerCase() === 'hostname') renamed = true;
        }
        break;
      }
      case '-J':
        if (value === null || !value.literal) hosts.push(null);
        else
          for (const jump of value.value.split(',')) hosts.push(hostOf({ ...value, value: jump }));
        break;
      case '-F':
        // Another configuration file may name any host and any program.
        runs ??= '`-F` reads a configuration file that may name programs to run';
        break;
      case '-S':
        // ssh's control socket; scp's and sftp's program in place of ssh.
        runs ??= '`-S` names a program or socket in place of ssh';
        break;
      case '-L':
      case '-R':
        hosts.push(...forwardHosts(value));
        break;
      case '-D':
      case '-w':
        // A SOCKS proxy or a tunnel: the connections it carries may go anywhere.
        hosts.push(null);
        break;
      case '-W':
        // `-W host:port`: stdio forwarded to that host.
        hosts.push(value === null || !value.literal ? null : value.value.replace(/:[^:\]]*$/, ''));
        break;
      default:
        break;
    }
  }
  return { hosts, runs, renamed };
}

/** `ssh [options] destination [command]`: a command given to run there is unparseable (E27). */
function ssh(words: readonly Word[]): Extraction {
  const { operands, seen, unknown } = operandsAndOptions(words, 1, SSH);
  if (unknown.length > 0)
    return { effects: [UNKNOWN_HOSTS], unparseable: `unknown ssh option \`${unknown[0] ?? ''}\`` };
  const reading = sshOptions(seen);
  const destination = operands[0];
  if (destination === undefined) return NONE;
  const hosts = reading.renamed ? reading.hosts : [hostOf(destination), ...reading.hosts];
  const effects = [egress(hosts)];
  if (reading.runs !== null) return { effects, unparseable: reading.runs };
  if (operands.length > 1)
    return { effects, unparseable: 'a command run through `ssh` on another host cannot be read' };
  return { effects };
}

const SCP: OptionSpec = {
  flags: ['-3', '-4', '-6', '-A', '-B', '-C', '-O', '-p', '-q', '-R', '-r', '-s', '-T', '-v'],
  values: ['-c', '-D', '-F', '-i', '-J', '-l', '-o', '-P', '-S', '-X'],
};

/** `scp [options] source… target`: the hosts of remote operands; a local target is written. */
function scp(words: readonly Word[], ctx: ExtractContext): Extraction {
  const { operands, seen, unknown } = operandsAndOptions(words, 1, SCP);
  if (unknown.length > 0)
    return { effects: [UNKNOWN_HOSTS], unparseable: `unknown scp option \`${unknown[0] ?? ''}\`` };
  const reading = sshOptions(seen);
  const hosts: (string | null)[] = [...reading.hosts];
  for (const operand of operands) {
    if (!operand.literal) hosts.push(null);
    else {
      const host = remoteHost(operand.value);
      if (host !== undefined) hosts.push(host);
    }
  }
  const effects: Effect[] = [];
  if (hosts.length > 0) effects.push(egress(hosts));
  const target = operands[operands.length - 1];
  if (
    operands.length >= 2 &&
    target !== undefined &&
    target.literal &&
    remoteHost(target.value) === undefined
  )
    effects.push(...writeEffects([target], ctx));
  if (reading.runs !== null) return { effects, unparseable: reading.runs };
  return { effects };
}

const SFTP: OptionSpec = {
  flags: ['-4', '-6', '-A', '-a', '-C', '-f', '-N', '-p', '-q', '-r', '-v'],
  values: ['-B', '-b', '-c', '-D', '-F', '-i', '-J', '-l', '-o', '-P', '-R', '-S', '-s', '-X'],
};

/** `sftp [options] destination`: a batch file (`-b`) or a server program (`-D`, `-s`) cannot be read. */
function sftp(words: readonly Word[]): Extraction {
  const { operands, seen, unknown } = operandsAndOptions(words, 1, SFTP);
  if (unknown.length > 0)
    return { effects: [UNKNOWN_HOSTS], unparseable: `unknown sftp option \`${unknown[0] ?? ''}\`` };
  const reading = sshOptions(seen);
  const destination = operands[0];
  const hosts: (string | null)[] = [...reading.hosts];
  if (destination !== undefined)
    hosts.push(destination.literal ? (remoteHost(destination.value) ?? hostOf(destination)) : null);
  const effects = [egress(hosts)];
  if (seen.some((o) => ['-b', '-D', '-s'].includes(o.name)))
    return { effects, unparseable: 'sftp runs commands or a program it is given' };
  if (reading.runs !== null) return { effects, unparseable: reading.runs };
  return { effects };
}

const RSYNC: OptionSpec = {
  flags: [
    '-v',
    '--verbose',
    '-q',
    '--quiet',
    '-c',
    '--checksum',
    '-a',
    '--archive',
    '-r',
    '--recursive',
    '-R',
    '--relative',
    '-b',
    '--backup',
    '-u',
    '--update',
    '-l',
    '--links',
    '-L',
    '--copy-links',
    '-H',
    '--hard-links',
    '-p',
    '--perms',
    '-E',
    '--executability',
    '-A',
    '--acls',
    '-X',
    '--xattrs',
    '-o',
    '--owner',
    '-g',
    '--group',
    '-D',
    '--devices',
    '--specials',
    '-t',
    '--times',
    '-S',
    '--sparse',
    '-n',
    '--dry-run',
    '-W',
    '--whole-file',
    '-x',
    '--one-file-system',
    '-z',
    '--compress',
    '-h',
    '--human-readable',
    '-P',
    '--progress',
    '--partial',
    '--stats',
    '-i',
    '--itemize-changes',
    '--delete',
    '--delete-before',
    '--delete-during',
    '--delete-delay',
    '--delete-after',
    '--delete-excluded',
    '--del',
    '--remove-source-files',
    '--force',
    '--ignore-existing',
    '--existing',
    '--inplace',
    '--append',
    '--mkpath',
    '-k',
    '--copy-dirlinks',
    '-K',
    '--keep-dirlinks',
    '-O',
    '--omit-dir-times',
    '--numeric-ids',
    '--no-motd',
    '-0',
    '--from0',
    '-s',
    '--protect-args',
    '-8',
    '--8-bit-output',
    '-4',
    '-6',
    '--ipv4',
    '--ipv6',
    '-m',
    '--prune-empty-dirs',
    '-F',
    '-y',
    '--fuzzy',
    '-C',
    '--cvs-exclude',
    '--list-only',
  ],
  values: [
    '-e',
    '--rsh',
    '--rsync-path',
    '--exclude',
    '--include',
    '--exclude-from',
    '--include-from',
    '--files-from',
    '-f',
    '--filter',
    '--port',
    '--password-file',
    '--log-file',
    '--log-file-format',
    '--out-format',
    '--timeout',
    '--contimeout',
    '--bwlimit',
    '-T',
    '--temp-dir',
    '--partial-dir',
    '--backup-dir',
    '--suffix',
    '--compare-dest',
    '--copy-dest',
    '--link-dest',
    '--chmod',
    '--chown',
    '--usermap',
    '--groupmap',
    '--max-size',
    '--min-size',
    '--max-delete',
    '-B',
    '--block-size',
    '--address',
    '--sockopts',
    '--info',
    '--debug',
    '--compress-level',
    '--skip-compress',
    '--write-batch',
    '--only-write-batch',
    '--read-batch',
    '--iconv',
    '-M',
    '--remote-option',
    '--outbuf',
    '--stop-after',
    '--stop-at',
    '--checksum-choice',
    '--compress-choice',
  ],
};

/** A remote shell for rsync that is plain ssh with harmless options. */
const PLAIN_RSH = /^ssh(\s+(-[46ACNTqvx]+|-[pil]\s*[^\s;&|`$'"\\]+))*$/;

/** `rsync [options] source… destination`: hosts of remote operands; deletions by `--delete*` and `--remove-source-files`. */
function rsync(words: readonly Word[], ctx: ExtractContext): Extraction {
  const { operands, seen, unknown } = operandsAndOptions(words, 1, RSYNC);
  if (unknown.length > 0)
    return {
      effects: [UNKNOWN_HOSTS],
      unparseable: `unknown rsync option \`${unknown[0] ?? ''}\``,
    };
  if (seen.some((o) => o.name === '-n' || o.name === '--dry-run' || o.name === '--list-only'))
    return remoteHosts(operands).length > 0 ? { effects: [egress(remoteHosts(operands))] } : NONE;
  const hosts = remoteHosts(operands);
  const effects: Effect[] = [];
  if (hosts.length > 0) effects.push(egress(hosts));
  const local = (word: Word): boolean =>
    !word.literal || (remoteHost(word.value) === undefined && !word.value.includes('::'));
  const destination = operands[operands.length - 1];
  const sources = operands.slice(0, -1);
  if (destination !== undefined && operands.length >= 2 && local(destination))
    effects.push(...writeEffects([destination], ctx));
  const deletes: Effect[] = [];
  if (
    seen.some((o) => o.name.startsWith('--del')) &&
    destination !== undefined &&
    local(destination)
  ) {
    // Files in the destination that the source lacks are deleted: which ones cannot be known.
    deletes.push(effect('fileDelete', { paths: null, count: null }));
  }
  if (seen.some((o) => o.name === '--remove-source-files')) {
    const localSources = sources.filter(local);
    const at = localSources.length === sources.length ? pathsOf(localSources, ctx) : null;
    deletes.push(effect('fileDelete', { paths: at, count: null }));
  }
  const logs = seen
    .filter((o) => ['--log-file', '--write-batch', '--only-write-batch'].includes(o.name))
    .map((o) => o.value)
    .filter((w): w is Word => w !== null);
  effects.push(...deletes, ...writeEffects(logs, ctx));
  const rsh = seen.find((o) => o.name === '-e' || o.name === '--rsh');
  if (
    rsh !== undefined &&
    (rsh.value === null || !rsh.value.literal || !PLAIN_RSH.test(rsh.value.value.trim()))
  )
    return { effects, unparseable: 'the remote shell rsync runs (`-e`) cannot be read' };
  if (ctx.assigned.has('RSYNC_RSH') || ctx.assigned.has('RSYNC_CONNECT_PROG'))
    return { effects, unparseable: 'the remote shell rsync runs cannot be read' };
  return { effects };
}

function remoteHosts(operands: readonly Word[]): (string | null)[] {
  const hosts: (string | null)[] = [];
  for (const operand of operands) {
    if (!operand.literal) {
      hosts.push(null);
      continue;
    }
    // `host::module` names an rsync daemon.
    const daemon = /^(?:[^@/:]+@)?([^:/]+)::/.exec(operand.value);
    const host = daemon === null ? remoteHost(operand.value) : daemon[1];
    if (host !== undefined) hosts.push(host);
  }
  return hosts;
}

const NC: OptionSpec = {
  flags: [
    '-4',
    '-6',
    '-b',
    '-C',
    '-D',
    '-d',
    '-F',
    '-h',
    '-k',
    '-l',
    '-N',
    '-n',
    '-r',
    '-S',
    '-t',
    '-U',
    '-u',
    '-v',
    '-z',
    '--listen',
    '--udp',
    '--verbose',
    '--ssl',
    '--keep-open',
    '--nodns',
    '--send-only',
    '--recv-only',
    '-q',
  ],
  values: [
    '-I',
    '-i',
    '-M',
    '-m',
    '-O',
    '-P',
    '-p',
    '-s',
    '-T',
    '-V',
    '-W',
    '-w',
    '-X',
    '-x',
    '-e',
    '-c',
    '--exec',
    '--sh-exec',
    '--lua-exec',
    '--proxy',
    '--proxy-type',
    '--proxy-auth',
    '--source',
    '--source-port',
    '-o',
    '--output',
    '--wait',
    '--idle-timeout',
  ],
};

/** `nc host port`, `nc -l port` (a listener: who connects is unknown), `-e`/`-c` run a program. */
function nc(words: readonly Word[], ctx: ExtractContext): Extraction {
  const { operands, seen, unknown } = operandsAndOptions(words, 1, NC);
  if (unknown.length > 0)
    return { effects: [UNKNOWN_HOSTS], unparseable: `unknown nc option \`${unknown[0] ?? ''}\`` };
  const listens = seen.some((o) => o.name === '-l' || o.name === '--listen');
  const unix = seen.some((o) => o.name === '-U');
  const hosts: (string | null)[] = [];
  if (listens) hosts.push(null);
  else if (!unix && operands[0] !== undefined) hosts.push(hostOf(operands[0]));
  for (const option of seen)
    if (['-x', '--proxy'].includes(option.name)) hosts.push(hostOf(option.value));
  const effects: Effect[] = unix && !listens ? [] : [egress(hosts)];
  const output = seen.find((o) => o.name === '-o' || o.name === '--output');
  if (output?.value) effects.push(...writeEffects([output.value], ctx));
  if (seen.some((o) => ['-e', '-c', '--exec', '--sh-exec', '--lua-exec'].includes(o.name)))
    return { effects, unparseable: '`nc -e` runs a program on the connection' };
  return { effects };
}

/** socat's address types that reach a host (`TCP:host:port`), listen, or run a program. */
const SOCAT_CONNECT =
  /^(tcp[46]?|udp[46]?|sctp[46]?|openssl|ssl|dccp[46]?|udplite[46]?|socks4a?|socks5|proxy|ip[46]?-sendto|udp[46]?-sendto|udp[46]?-datagram|ip[46]?-datagram|go-?proxy)$/;
const SOCAT_RUNS = /^(exec|system|shell)$/;

/** `socat ADDRESS ADDRESS`: every address is read; a program address is unparseable. */
function socat(words: readonly Word[], ctx: ExtractContext): Extraction {
  const { operands } = operandsAndOptions(words, 1, SOCAT);
  const hosts: (string | null)[] = [];
  const writes: Word[] = [];
  let runs = false;
  let network = false;
  for (const operand of operands) {
    if (!operand.literal) {
      hosts.push(null);
      network = true;
      continue;
    }
    const address = operand.value.split(',')[0] ?? '';
    if (address === '-' || address === 'STDIO' || /^stdio$/i.test(address)) continue;
    const colon = address.indexOf(':');
    const type = (colon < 0 ? address : address.slice(0, colon)).toLowerCase();
    const rest = colon < 0 ? '' : address.slice(colon + 1);
    if (SOCAT_RUNS.test(type)) runs = true;
    else if (SOCAT_CONNECT.test(type)) {
      network = true;
      // `TCP:host:port`; `SOCKS4:proxy:host:port` and `PROXY:proxy:host:port` reach both.
      const parts = rest.match(/\[[^\]]*\]|[^:]+/g) ?? [];
      const named = /^(socks|proxy|go-?proxy)/.test(type) ? parts.slice(0, 2) : parts.slice(0, 1);
      for (const host of named) hosts.push(host.replace(/^\[|\]$/g, ''));
      if (named.length === 0) hosts.push(null);
    } else if (/-(listen|recv|recvfrom)$/.test(type) || /^(tun|interface)$/.test(type)) {
      network = true;
      hosts.push(null);
    } else if (/^(open|create|gopen)$/.test(type)) {
      writes.push({ ...operand, value: rest });
    } else if (colon < 0 && address.startsWith('/')) {
      writes.push({ ...operand, value: address });
    } else if (
      !/^(unix-connect|unix-client|unix|abstract-connect|pipe|pty|fd|stdin|stdout|stderr)$/.test(
        type,
      )
    ) {
      // An address type this reader does not know may be anything.
      network = true;
      hosts.push(null);
    }
  }
  const effects: Effect[] = [];
  if (network) effects.push(egress(hosts));
  effects.push(...writeEffects(writes, ctx));
  if (runs) return { effects, unparseable: 'a socat `EXEC:`/`SYSTEM:` address runs a program' };
  return { effects };
}

const SOCAT: OptionSpec = {
  flags: [
    '-d',
    '-dd',
    '-ddd',
    '-D',
    '-u',
    '-U',
    '-4',
    '-6',
    '-v',
    '-x',
    '-s',
    '-g',
    '-r',
    '-R',
    '-h',
    '-V',
  ],
  values: ['-b', '-t', '-T', '-L', '-W', '-lf', '-lp', '-lu', '-lm', '-lh', '-ly'],
};

/** `telnet [options] host [port]`, `ftp host`, `mosh host`, `ping host`, `traceroute host`, `whois name`: the first operand is the host. */
function firstHost(spec: OptionSpec, hostOptions: readonly string[] = []): Extractor {
  return (words) => {
    const { operands, seen, unknown } = operandsAndOptions(words, 1, spec);
    if (unknown.length > 0) return { effects: [UNKNOWN_HOSTS] };
    const hosts: (string | null)[] = [];
    for (const option of seen)
      if (hostOptions.includes(option.name)) hosts.push(hostOf(option.value));
    const first = operands[0];
    if (first !== undefined) hosts.push(hostOf(first));
    return { effects: [egress(hosts)] };
  };
}

type Extractor = (words: readonly Word[], ctx: ExtractContext) => Extraction;

const TELNET: OptionSpec = {
  flags: ['-4', '-6', '-8', '-E', '-F', '-K', '-L', '-a', '-c', '-d', '-f', '-r', '-x'],
  values: ['-b', '-e', '-l', '-n', '-X', '-k'],
};
const PING: OptionSpec = {
  flags: [
    '-4',
    '-6',
    '-a',
    '-A',
    '-b',
    '-B',
    '-d',
    '-D',
    '-f',
    '-L',
    '-n',
    '-O',
    '-q',
    '-r',
    '-R',
    '-U',
    '-v',
    '-V',
  ],
  values: [
    '-c',
    '-F',
    '-i',
    '-I',
    '-l',
    '-m',
    '-M',
    '-N',
    '-w',
    '-W',
    '-p',
    '-Q',
    '-s',
    '-S',
    '-t',
    '-T',
  ],
};
const TRACEROUTE: OptionSpec = {
  flags: [
    '-4',
    '-6',
    '-d',
    '-F',
    '-I',
    '-T',
    '-U',
    '-n',
    '-r',
    '-e',
    '-A',
    '-V',
    '--icmp',
    '--tcp',
    '--udp',
    '-b',
    '-y',
    '-w',
    '-c',
    '-r',
    '--report',
    '--report-wide',
  ],
  values: [
    '-f',
    '-g',
    '-i',
    '-m',
    '-N',
    '-p',
    '-t',
    '-l',
    '-M',
    '-q',
    '-s',
    '-z',
    '-P',
    '-o',
    '--max-hops',
    '--port',
    '--interval',
  ],
};
const WHOIS: OptionSpec = {
  flags: [
    '-H',
    '-l',
    '-L',
    '-m',
    '-M',
    '-r',
    '-R',
    '-a',
    '-B',
    '-G',
    '-K',
    '-c',
    '-b',
    '--verbose',
    '--no-recursion',
  ],
  values: ['-h', '--host', '-p', '--port', '-i', '-T', '-s', '-g', '-t', '-v', '-q'],
};
const MOSH: OptionSpec = {
  flags: ['-4', '-6', '-n', '-a', '--no-init', '--local', '--no-ssh-pty', '-p'],
  values: [
    '--ssh',
    '--server',
    '--client',
    '--port',
    '--predict',
    '--family',
    '--bind-server',
    '--experimental-remote-ip',
  ],
};
const FTP: OptionSpec = {
  flags: ['-4', '-6', '-A', '-a', '-d', '-e', '-f', '-g', '-i', '-n', '-p', '-t', '-v', '-V'],
  values: ['-P', '-o', '-r', '-s', '-T', '-u'],
};

/** `mosh [options] host [-- command]`: a program (`--ssh`, `--server`) or a command is unparseable. */
function mosh(words: readonly Word[]): Extraction {
  const { operands, seen, unknown } = operandsAndOptions(words, 1, MOSH);
  if (unknown.length > 0) return { effects: [UNKNOWN_HOSTS], unparseable: 'unknown mosh option' };
  const effects = [egress([hostOf(operands[0])])];
  if (operands.length > 1 || seen.some((o) => ['--ssh', '--server', '--client'].includes(o.name)))
    return { effects, unparseable: 'a command run through `mosh` cannot be read' };
  return { effects };
}

const LFTP: OptionSpec = {
  flags: ['-d', '--norc', '-v', '--version', '--help'],
  values: ['-e', '-c', '-f', '-u', '-p', '--user', '--password', '--env-password'],
};

/** `lftp [options] site`: commands given with `-c`, `-e` or `-f` cannot be read. */
function lftp(words: readonly Word[]): Extraction {
  const { operands, seen, unknown } = operandsAndOptions(words, 1, LFTP);
  if (unknown.length > 0) return { effects: [UNKNOWN_HOSTS], unparseable: 'unknown lftp option' };
  const effects = [egress(operands[0] === undefined ? [null] : [hostOf(operands[0])])];
  if (seen.some((o) => ['-e', '-c', '-f'].includes(o.name)))
    return { effects, unparseable: 'the commands lftp is given cannot be read' };
  return { effects };
}

/** `dig [@server] name`, `nslookup name [server]`, `host name [server]`: the names looked up are reached (a lookup reaches their name servers). */
function lookup(spec: OptionSpec): Extractor {
  return (words) => {
    const { operands, unknown } = operandsAndOptions(words, 1, spec);
    if (unknown.length > 0) return { effects: [UNKNOWN_HOSTS] };
    const hosts: (string | null)[] = [];
    for (const operand of operands) {
      if (!operand.literal) {
        hosts.push(null);
        continue;
      }
      const text = operand.value.startsWith('@') ? operand.value.slice(1) : operand.value;
      // dig's query options (`+short`) and record types (`A`, `MX`) are not hosts.
      if (text.startsWith('+') || /^[A-Z0-9]+$/.test(text) || /^(in|ch|hs)$/i.test(text)) continue;
      if (text.startsWith('-')) continue;
      hosts.push(text);
    }
    return { effects: [egress(hosts)] };
  };
}

const DIG: OptionSpec = {
  flags: ['-4', '-6', '-m', '-u', '-r', '-h', '-v', '-i'],
  values: ['-b', '-c', '-f', '-k', '-p', '-q', '-t', '-x', '-y'],
};
const HOST: OptionSpec = {
  flags: ['-a', '-A', '-c', '-C', '-d', '-l', '-r', '-s', '-T', '-U', '-v', '-V', '-4', '-6'],
  values: ['-D', '-i', '-m', '-N', '-R', '-t', '-W', '-c'],
};
const NSLOOKUP: OptionSpec = { flags: ['-debug', '-nodebug', '-d2'] };

const ARIA2C: OptionSpec = {
  flags: [
    '-c',
    '--continue',
    '-q',
    '--quiet',
    '-Z',
    '--force-sequential',
    '-V',
    '--check-integrity',
    '-D',
    '--daemon',
    '--allow-overwrite',
    '--auto-file-renaming',
    '-R',
    '--remote-time',
  ],
  values: [
    '-d',
    '--dir',
    '-o',
    '--out',
    '-x',
    '--max-connection-per-server',
    '-s',
    '--split',
    '-j',
    '--max-concurrent-downloads',
    '-k',
    '--min-split-size',
    '-t',
    '--timeout',
    '-m',
    '--max-tries',
    '-U',
    '--user-agent',
    '--header',
    '--http-user',
    '--http-passwd',
    '--all-proxy',
    '--http-proxy',
    '--https-proxy',
    '--ftp-proxy',
    '-i',
    '--input-file',
    '-l',
    '--log',
    '--conf-path',
    '--on-download-complete',
    '--on-download-start',
    '--on-download-error',
    '--on-download-stop',
    '--on-download-pause',
    '--on-bt-download-complete',
    '--save-session',
    '-T',
    '--torrent-file',
    '-M',
    '--metalink-file',
    '--checksum',
  ],
};

/** `aria2c URL…`: URLs and proxies are hosts; hooks run programs; input files and torrents hide hosts. */
function aria2c(words: readonly Word[], ctx: ExtractContext): Extraction {
  const { operands, seen, unknown } = operandsAndOptions(words, 1, ARIA2C);
  if (unknown.length > 0) return { effects: [UNKNOWN_HOSTS] };
  const hosts: (string | null)[] = operands.map((o) => (o.literal ? o.value : null));
  for (const option of seen) {
    if (/proxy$/.test(option.name)) hosts.push(hostOf(option.value));
    if (
      [
        '-i',
        '--input-file',
        '-T',
        '--torrent-file',
        '-M',
        '--metalink-file',
        '--conf-path',
      ].includes(option.name)
    )
      hosts.push(null);
  }
  for (const proxy of assignedProxies(ctx)) hosts.push(proxy);
  const writes = seen
    .filter((o) => ['-d', '--dir', '-l', '--log', '--save-session'].includes(o.name))
    .map((o) => o.value)
    .filter((w): w is Word => w !== null);
  const effects = [egress(hosts), ...writeEffects(writes, ctx)];
  if (seen.some((o) => o.name.startsWith('--on-')))
    return { effects, unparseable: 'aria2c runs the program its `--on-…` hook names' };
  return { effects };
}

const HTTPIE: OptionSpec = {
  flags: [
    '-j',
    '--json',
    '-f',
    '--form',
    '--multipart',
    '-h',
    '--headers',
    '-b',
    '--body',
    '-v',
    '--verbose',
    '-q',
    '--quiet',
    '-d',
    '--download',
    '-c',
    '--continue',
    '-F',
    '--follow',
    '--all',
    '--offline',
    '--check-status',
    '-I',
    '--ignore-stdin',
    '-S',
    '--stream',
    '--pretty',
    '--ignore-netrc',
    '-x',
    '--compress',
    '--chunked',
    '--debug',
    '--traceback',
  ],
  values: [
    '-a',
    '--auth',
    '-A',
    '--auth-type',
    '-o',
    '--output',
    '-p',
    '--print',
    '-P',
    '--history-print',
    '-s',
    '--style',
    '--session',
    '--session-read-only',
    '--proxy',
    '--verify',
    '--cert',
    '--cert-key',
    '--cert-key-pass',
    '--ssl',
    '--ciphers',
    '--timeout',
    '--max-redirects',
    '--max-headers',
    '--boundary',
    '--raw',
    '--format-options',
    '--unsorted',
    '--sorted',
    '--response-charset',
    '--response-mime',
    '--default-scheme',
    '--path-as-is',
  ],
};
const METHODS = /^([A-Z]+|get|post|put|patch|delete|head|options)$/;

/** HTTPie (`http`, `https`) and xh: `[METHOD] URL [items]`; `:3000/x` is localhost; proxies are hosts. */
function httpie(words: readonly Word[], ctx: ExtractContext): Extraction {
  const { operands, seen, unknown } = operandsAndOptions(words, 1, HTTPIE);
  if (unknown.length > 0) return { effects: [UNKNOWN_HOSTS] };
  if (seen.some((o) => o.name === '--offline')) return NONE;
  const url = operands.find((o, i) => !(i === 0 && o.literal && METHODS.test(o.value)));
  const hosts: (string | null)[] = [];
  if (url === undefined || !url.literal) hosts.push(null);
  else hosts.push(/^:/.test(url.value) ? 'localhost' : url.value);
  for (const option of seen)
    if (option.name === '--proxy') {
      // `--proxy=PROTOCOL:URL`.
      const value = option.value;
      hosts.push(
        value === null || !value.literal
          ? null
          : value.value.replace(/^[a-z]+:(?=[a-z]+:\/\/)/i, ''),
      );
    }
  for (const proxy of assignedProxies(ctx)) hosts.push(proxy);
  const output = seen.find((o) => o.name === '-o' || o.name === '--output');
  return { effects: [egress(hosts), ...(output?.value ? writeEffects([output.value], ctx) : [])] };
}

/** `openssl s_client -connect host:port` and the other subcommands that connect. */
function openssl(words: readonly Word[]): Extraction {
  const sub = words[1];
  if (sub === undefined) return NONE;
  if (!sub.literal) return { effects: [], unparseable: 'the openssl command is not literal' };
  if (!['s_client', 's_time', 'ocsp'].includes(sub.value)) return NONE;
  const hosts: (string | null)[] = [];
  for (let i = 2; i < words.length; i++) {
    const option = (words[i] as Word).value;
    if (['-connect', '-host', '-proxy', '-url', '-starttls_host', '-servername'].includes(option)) {
      const value = words[i + 1];
      if (value === undefined || !value.literal) hosts.push(null);
      else if (option === '-url') hosts.push(value.value);
      else hosts.push(value.value.replace(/:\d+$/, ''));
      i++;
    }
  }
  // Without -connect, s_client reaches localhost:4433.
  if (hosts.length === 0) hosts.push(sub.value === 'ocsp' ? null : 'localhost');
  return { effects: [egress(hosts)] };
}

/** The registry of an image name (`ghcr.io/o/i:tag`); Docker Hub for a bare name. */
function registryOf(word: Word | undefined): string | null {
  if (word === undefined || !word.literal) return null;
  const first = word.value.split('/')[0] ?? '';
  if (word.value.includes('/') && (/[.:]/.test(first) || first === 'localhost')) return first;
  return 'docker.io';
}

/** `docker|podman pull|push IMAGE`, `login [server]`: the registry is reached. */
function docker(words: readonly Word[], ctx: ExtractContext): Extraction {
  const { operands, seen } = operandsAndOptions(words, 1, DOCKER);
  // `-H tcp://host:2375`, `DOCKER_HOST`: the daemon itself is on another host.
  const daemon: (string | null)[] = seen
    .filter((o) => o.name === '-H' || o.name === '--host')
    .map((o) => (o.value === null || !o.value.literal ? null : o.value.value))
    .filter((value) => value === null || !/^(unix|npipe|fd):/.test(value));
  if (ctx.assigned.has('DOCKER_HOST')) {
    const value = ctx.environment?.get('DOCKER_HOST') ?? null;
    if (value === null || !/^(unix|npipe|fd):/.test(value)) daemon.push(value);
  }
  if (ctx.assigned.has('DOCKER_CONTEXT')) daemon.push(null);
  const withDaemon = (extraction: Extraction): Extraction =>
    daemon.length === 0
      ? extraction
      : { ...extraction, effects: [...extraction.effects, egress(daemon)] };
  const verb = operands[0];
  // A container given host folders, devices or privileges can change the host: what it runs is not read.
  if (
    verb?.literal === true &&
    ['run', 'create', 'exec'].includes(verb.value) &&
    words.some((w) => w.literal && HOST_ACCESS.test(w.value))
  ) {
    return withDaemon({
      effects: [],
      unparseable: 'a container given host folders, devices or privileges can change the host',
    });
  }
  return withDaemon(dockerVerb(operands));
}

/** `docker run` options that give a container the host's folders, devices, namespaces or privileges. */
const HOST_ACCESS =
  /^(-v|--volume|--mount|--privileged|--pid|--network|--net|--cap-add|--device|--userns|--ipc|--uts|--security-opt|--volumes-from)(=|$)|^-[a-zA-Z]*v./;

function dockerVerb(operands: readonly Word[]): Extraction {
  const verb = operands[0];
  if (verb === undefined) return NONE;
  if (!verb.literal) return { effects: [], unparseable: 'the docker command is not literal' };
  const sub = verb.value === 'image' ? operands[1] : verb;
  const args = verb.value === 'image' ? operands.slice(2) : operands.slice(1);
  switch (sub?.value) {
    case 'pull':
    case 'push':
      return { effects: [egress([registryOf(args[0])])] };
    case 'login':
    case 'logout':
      return { effects: [egress([args[0] === undefined ? 'docker.io' : hostOf(args[0])])] };
    default:
      return NONE;
  }
}

const DOCKER: OptionSpec = {
  flags: [
    '-a',
    '--all-tags',
    '-q',
    '--quiet',
    '--disable-content-trust',
    '--password-stdin',
    '-D',
    '--debug',
    '--tls',
    '--tlsverify',
  ],
  values: [
    '--platform',
    '-u',
    '--username',
    '-p',
    '--password',
    '-H',
    '--host',
    '-c',
    '--context',
    '--config',
    '-l',
    '--log-level',
  ],
};

/** Variables that name a package registry, by program. */
const REGISTRY_VARIABLES: Readonly<Record<string, readonly string[]>> = {
  npm: ['NPM_CONFIG_REGISTRY', 'npm_config_registry'],
  pnpm: ['NPM_CONFIG_REGISTRY', 'npm_config_registry'],
  yarn: ['NPM_CONFIG_REGISTRY', 'npm_config_registry', 'YARN_REGISTRY', 'YARN_NPM_REGISTRY_SERVER'],
  pip: ['PIP_INDEX_URL', 'PIP_EXTRA_INDEX_URL', 'PIP_PROXY'],
  uv: ['UV_INDEX_URL', 'UV_EXTRA_INDEX_URL', 'UV_INDEX', 'PIP_INDEX_URL'],
};
const REGISTRY_OPTIONS = new Set([
  '--registry',
  '-i',
  '--index-url',
  '--extra-index-url',
  '--index',
  '--default-index',
  '--proxy',
  '--https-proxy',
  '-f',
  '--find-links',
  '--trusted-host',
]);

/**
 * npm, pnpm, yarn, pip and uv reach the registry a flag or variable names
 * (`--registry`, `--index-url`, `PIP_INDEX_URL`); `npm publish` reaches the
 * registry it publishes to. Other commands are read by the table's prefixes.
 */
function registry(words: readonly Word[], ctx: ExtractContext): Extraction {
  const program = ((words[0] as Word).value.split('/').pop() ?? '').replace(/\d+(\.\d+)*$/, '');
  const hosts: (string | null)[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i] as Word;
    if (!word.literal) continue;
    const eq = word.value.indexOf('=');
    const name = eq < 0 ? word.value : word.value.slice(0, eq);
    if (!REGISTRY_OPTIONS.has(name)) continue;
    if (name === '-f' && program !== 'pip') continue;
    if (name === '-i' && program !== 'pip' && program !== 'uv') continue;
    const value = eq < 0 ? words[++i] : { ...word, value: word.value.slice(eq + 1) };
    if (value === undefined || !value.literal) hosts.push(null);
    else if (/^(\.|\/|~)/.test(value.value))
      continue; // a local folder of packages
    else hosts.push(value.value);
  }
  for (const name of REGISTRY_VARIABLES[program] ?? [])
    if (ctx.assigned.has(name)) hosts.push(ctx.environment?.get(name) ?? null);
  hosts.push(...assignedProxies(ctx));
  const publishes =
    (program === 'npm' || program === 'pnpm' || program === 'yarn') &&
    words.some(
      (w, i) =>
        i > 0 && w.literal && ['publish', 'unpublish', 'deprecate', 'dist-tag'].includes(w.value),
    );
  if (publishes && hosts.length === 0) hosts.push('registry.npmjs.org');
  if (hosts.length === 0) return NONE;
  return { effects: [egress(hosts)] };
}

export const REMOTE_EXTRACTORS = {
  ssh: (words: readonly Word[]) => ssh(words),
  scp,
  sftp: (words: readonly Word[]) => sftp(words),
  rsync,
  nc,
  socat,
  telnet: firstHost(TELNET),
  ping: firstHost(PING),
  traceroute: firstHost(TRACEROUTE),
  whois: firstHost(WHOIS, ['-h', '--host']),
  ftp: firstHost(FTP),
  mosh: (words: readonly Word[]) => mosh(words),
  lftp: (words: readonly Word[]) => lftp(words),
  dig: lookup(DIG),
  host: lookup(HOST),
  nslookup: lookup(NSLOOKUP),
  aria2c,
  httpie,
  openssl: (words: readonly Word[]) => openssl(words),
  docker,
  registry,
} satisfies Record<string, Extractor>;

export const REMOTE_DESCRIPTIONS: Readonly<Record<keyof typeof REMOTE_EXTRACTORS, string>> = {
  ssh: 'networkEgress with the destination, jump and forwarded hosts; a remote command, `ProxyCommand` or `-F` is unparseable',
  scp: 'networkEgress with the hosts of remote operands; a local target outside the worktree is written',
  sftp: 'networkEgress with the destination; batch files and server programs are unparseable',
  rsync:
    'networkEgress with remote hosts; `--delete*` and `--remove-source-files` → fileDelete; `-e` other than plain ssh is unparseable',
  nc: 'networkEgress with the host (a listener: unknown); `-e`/`-c` are unparseable',
  socat: 'networkEgress with the hosts of its addresses; `EXEC:`/`SYSTEM:` are unparseable',
  telnet: 'networkEgress with the host',
  ping: 'networkEgress with the host',
  traceroute: 'networkEgress with the host',
  whois: 'networkEgress with the name and the server',
  ftp: 'networkEgress with the host',
  mosh: 'networkEgress with the host; a command is unparseable',
  lftp: 'networkEgress with the site; scripts are unparseable',
  dig: 'networkEgress with the names looked up and the server',
  host: 'networkEgress with the names looked up and the server',
  nslookup: 'networkEgress with the names looked up and the server',
  aria2c: 'networkEgress with its URLs and proxies; `--on-…` hooks are unparseable',
  httpie: 'networkEgress with the URL and proxies',
  openssl: '`s_client`, `s_time`, `ocsp` → networkEgress with the host they connect to',
  docker: '`pull`, `push`, `login` → networkEgress with the registry',
  registry:
    'networkEgress with a registry named by a flag or variable, and with the registry `publish` reaches',
};

export type RemoteExtractorName = keyof typeof REMOTE_EXTRACTORS;
export { proxyEffects };

/** The option table each of these extractors reads its program's options with. */
export const REMOTE_OPTIONS: Readonly<Partial<Record<RemoteExtractorName, OptionSpec>>> = {
  ssh: SSH,
  scp: SCP,
  sftp: SFTP,
  rsync: RSYNC,
  nc: NC,
  socat: SOCAT,
  telnet: TELNET,
  ping: PING,
  traceroute: TRACEROUTE,
  whois: WHOIS,
  ftp: FTP,
  mosh: MOSH,
  lftp: LFTP,
  dig: DIG,
  host: HOST,
  nslookup: NSLOOKUP,
  aria2c: ARIA2C,
  httpie: HTTPIE,
  docker: DOCKER,
};
