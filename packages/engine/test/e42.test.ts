// E42: a deny that certainly applies never weakens. An unknown or unparseable
// part of a command may add prompting facets (E23, E24, E26), but a facet
// whose known arguments already match a deny stays `deny`: extra options,
// environment assignments, or a command the classifier cannot read beyond its
// leading words never turn a certain deny into a prompt. The classifier keeps
// what a command certainly touches (`known`) beside an unknown key.

import { describe, expect, it } from 'vitest';
import { DEFAULT_TABLE, analyzeCommand } from '../src/index.js';
import { decideDocs } from './decide-docs.js';

type RuleDoc = Record<string, unknown>;

const MAIN: RuleDoc = {
  id: 'protect-main',
  action: 'gitPush',
  decision: 'deny',
  when: { refs: ['main'] },
};
const DENIED: RuleDoc = {
  id: 'no-denied',
  action: 'networkEgress',
  decision: 'deny',
  when: { hosts: ['denied.example'] },
};
const SSH: RuleDoc = { id: 'no-ssh', command: 'ssh', decision: 'deny' };
const ENV_FILES: RuleDoc = {
  id: 'no-env',
  action: 'fileDelete',
  decision: 'deny',
  when: { paths: ['**/.env'] },
};

function decide(rules: RuleDoc[], command: string, space?: string) {
  return decideDocs(
    {
      version: 1,
      workspace: 'acme',
      spaces: { free: { autonomy: 'actFreely' } },
      rules,
    },
    {
      workspace: 'acme',
      agent: 'a',
      command,
      worktree: '/srv/w',
      ...(space === undefined ? {} : { space }),
    },
    { approverConnected: true },
  );
}

function argsOf(command: string, cls: string) {
  return analyzeCommand(command, DEFAULT_TABLE, '/srv/w')
    .units.flatMap((unit) => [...unit.effects])
    .filter((item) => item.cls === cls)
    .map((item) => item.args);
}

describe('the issue’s three examples stay denied (E42)', () => {
  it('`git -C repo -c a=b push origin main` under a deny on refs [main]', () => {
    const result = decide([MAIN], 'git -C repo -c a=b push origin main');
    expect(result.decision).toBe('deny');
    expect(result.rule).toBe('protect-main');
  });

  it('`env HTTPS_PROXY=… curl https://denied.example/` under a deny on that host', () => {
    const result = decide(
      [DENIED],
      'env HTTPS_PROXY=http://proxy.example:3128 curl https://denied.example/',
    );
    expect(result.decision).toBe('deny');
    expect(result.rule).toBe('no-denied');
  });

  it('`ssh build-host uptime` under a deny on the command `ssh` (E23: the leading word is confident)', () => {
    const result = decide([SSH], 'ssh build-host uptime');
    expect(result.decision).toBe('deny');
    expect(result.rule).toBe('no-ssh');
  });

  it('the denies stay under `actFreely` too (E17, E20)', () => {
    expect(decide([MAIN], 'git -C repo -c a=b push origin main', 'free').decision).toBe('deny');
    expect(decide([SSH], 'ssh build-host uptime', 'free').decision).toBe('deny');
  });
});

describe('variants: extra options and settings (E42)', () => {
  it.each([
    'git -c a=b push origin main',
    'git -c foo.bar=1 -c baz.qux=2 push origin main',
    'git -c core.pager=less push origin main',
    'git -c core.hooksPath=/tmp/h push origin main',
    'git -c alias.p=push push origin main',
    'git -c url.https://x/.insteadOf=https://y/ push origin main',
    'git -c http.proxy=http://p:1 push origin main',
    'git --config-env=core.editor=E push origin main',
    'git -C repo -c core.sshCommand=x push --force origin HEAD:main',
    'git push --receive-pack=x origin main',
    "git push 'ext::sh -c x' main",
    'git push origin main $(echo feature)',
    'git push origin main `echo feature`',
    'git push origin main $BRANCH',
    'git push origin HEAD main',
    'git push --tags origin main',
    'git push origin feature main~1 main',
  ])('`%s` stays denied by a rule protecting main', (command) => {
    const result = decide([MAIN], command);
    expect(result.decision).toBe('deny');
    expect(result.rule).toBe('protect-main');
  });

  it('a setting that may map the pushed ref elsewhere does not make main certain', () => {
    // remote.origin.push maps what `feature` is pushed to: the ref is unknown, not certainly feature.
    expect(
      argsOf(
        'git -c remote.origin.push=refs/heads/feature:refs/heads/main push origin feature',
        'gitPush',
      ),
    ).toEqual([{ refs: null }]);
    expect(decide([MAIN], 'git -c remote.origin.push=x push origin feature').decision).toBe(
      'prompt',
    );
  });

  it('configuration read from elsewhere leaves nothing certain', () => {
    expect(argsOf('GIT_CONFIG_PARAMETERS=x git push origin main', 'gitPush')).toEqual([
      { refs: null },
    ]);
    expect(argsOf('git -c include.path=/tmp/c push origin main', 'gitPush')).toEqual([
      { refs: null },
    ]);
  });

  it('the known ref is kept beside the unknown rest, for the resolver (E26, E42)', () => {
    expect(argsOf('git -c a=b push origin main', 'gitPush')).toEqual([
      { refs: null, known: { refs: ['main'] } },
    ]);
  });
});

describe('variants: environment assignments (E42)', () => {
  it.each([
    'HTTPS_PROXY=http://proxy.example:3128 curl https://denied.example/',
    'https_proxy=http://proxy.example curl https://denied.example/',
    'ALL_PROXY=socks5://proxy.example curl https://denied.example/',
    'env ALL_PROXY=socks5://proxy.example curl -s https://denied.example/',
    'HTTPS_PROXY=$P curl https://denied.example/',
    'HTTP_PROXY=http://p wget http://denied.example/',
    'LD_PRELOAD=/tmp/x.so curl https://denied.example/',
    'PROMPT_COMMAND=x curl https://denied.example/',
    'http_proxy=http://p git clone https://denied.example/r',
    'curl https://denied.example/ $URL',
    'curl "https://x.example/{a,b}" https://denied.example/',
    'wget $U https://denied.example/',
    'HTTPS_PROXY=$P curl https://denied.example/ $U',
  ])('`%s` stays denied by a rule on denied.example', (command) => {
    const result = decide([DENIED], command);
    expect(result.decision).toBe('deny');
    expect(result.rule).toBe('no-denied');
  });

  it.each([
    'GIT_SSH_COMMAND="ssh -v" git push origin main',
    'GIT_EDITOR=vim git push origin main',
    'LD_PRELOAD=/tmp/x.so git push origin main',
    'env LD_PRELOAD=/tmp/x.so git push origin main',
    'BASH_ENV=/tmp/x git push origin main',
  ])('`%s` stays denied by a rule protecting main', (command) => {
    const result = decide([MAIN], command);
    expect(result.decision).toBe('deny');
    expect(result.rule).toBe('protect-main');
  });

  it('a proxy the assignment names is a host too, known beside the URL', () => {
    expect(
      argsOf('HTTPS_PROXY=http://p.example:3128 curl https://x.example/', 'networkEgress'),
    ).toEqual([{ hosts: ['https://x.example/', 'http://p.example:3128'] }]);
    expect(argsOf('HTTPS_PROXY=$P curl https://x.example/', 'networkEgress')).toEqual([
      { hosts: null, known: { hosts: ['https://x.example/'] } },
    ]);
  });
});

describe('variants: commands read only by their leading words (E23, E24, E42)', () => {
  it.each([
    'ssh build-host uptime',
    'ssh -p 2222 build-host uptime',
    "ssh build-host 'rm -rf /'",
    'ssh -t build-host sudo reboot',
    'ssh -o ProxyCommand=x build-host',
    'ssh build-host $(cat cmd)',
  ])('`%s` stays denied by a deny on the command `ssh`', (command) => {
    const result = decide([SSH], command);
    expect(result.decision).toBe('deny');
    expect(result.rule).toBe('no-ssh');
  });

  it('the ssh host is known even when its remote command is not', () => {
    expect(argsOf('ssh build-host uptime', 'networkEgress')).toEqual([
      { hosts: null, known: { hosts: ['build-host'] } },
    ]);
    expect(
      decide([{ ...DENIED, when: { hosts: ['build-host'] } }], 'ssh build-host uptime').decision,
    ).toBe('deny');
  });

  it.each([
    'rm -f .env $(ls)',
    'rm -f a/.env `ls`',
    'xargs rm -f .env',
    'LD_PRELOAD=x rm -f .env',
    'rm -f .env $X',
    'rm -f .env *.log',
    'unlink .env',
    'shred -u .env $X',
    'mv .env $DEST',
  ])('`%s` stays denied by a rule on .env files', (command) => {
    const result = decide([ENV_FILES], command);
    expect(result.decision, JSON.stringify(argsOf(command, 'fileDelete'))).toBe('deny');
  });

  it('an unknown part still adds its prompt where no deny is certain (E24)', () => {
    expect(decide([MAIN], 'git push origin feature $(x)').decision).toBe('prompt');
    expect(decide([SSH, MAIN], 'git -c core.pager=less push origin feature').decision).toBe(
      'prompt',
    );
  });
});

describe('variants: writes outside the worktree (E42)', () => {
  const OUTSIDE: RuleDoc = {
    id: 'no-etc',
    action: 'fileWriteOutsideWorktree',
    decision: 'deny',
    when: { paths: ['/etc/**'] },
  };

  it.each([
    'tee /etc/hosts $Y',
    'echo x > /etc/hosts > $Y',
    "sed -i 's/a/b/' /etc/hosts $F",
    'cp x /etc/hosts $(y)',
  ])('`%s` stays denied by a rule on /etc', (command) => {
    const result = decide([OUTSIDE], command);
    expect(result.decision).toBe('deny');
    expect(result.rule).toBe('no-etc');
  });
});
