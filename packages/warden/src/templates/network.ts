// The templates about reaching beyond the machine: network egress only to an
// allowlist, and no package installs.

import { unique } from './git.js';
import type { TemplateDefinition } from './types.js';

export const EGRESS_ALLOWLIST: TemplateDefinition = {
  name: 'egress-allowlist',
  title: 'Lock down egress to an allowlist',
  description:
    'Allows network access only to the listed hosts and denies the rest. The allow is ' +
    'constrained, so it is more specific than the unconstrained deny beside it and wins without ' +
    'any ordering. A request is allowed only if every host it names is listed. ' +
    '`*.internal` matches any subdomain of `internal` but not `internal` itself, and never an IP ' +
    'address: list addresses literally; `!` excludes a host from the list. Hosts compare ' +
    'case-insensitively, without port or trailing dot, and URLs are reduced to their host. ' +
    'A request whose hosts are not known (`git fetch origin`, a tool that does not report them) ' +
    'is denied, because the unconstrained deny applies as written. It governs the ' +
    '`networkEgress` class: what tools declare and what the classifier reads (`curl`, `wget`, ' +
    '`git clone|fetch`, `ssh`, `scp`, `rsync`, `nc`, `socat`, `dig` and the other network ' +
    'programs, proxies given by option or variable). A program that reaches the network ' +
    'otherwise (a script, a package manager) is not stopped by it; the OS sandbox is the ' +
    'boundary there. With `advisory` ' +
    'the deny only reports; the allow is always hard.',
  params: [
    {
      name: 'hosts',
      description:
        'the hosts agents may reach: names, `*.internal` for any subdomain, URLs (reduced to their host), `!` to exclude one',
      required: true,
      kind: 'list',
      example: ['api.internal', '*.internal', 'registry.npmjs.org'],
      probe: (value) => ({ action: 'networkEgress', decision: 'allow', when: { hosts: [value] } }),
      checkList: (values) =>
        values.every((value) => value.startsWith('!'))
          ? 'only negations: name at least one host to allow'
          : null,
    },
  ],
  rules: (params) => [
    { action: 'networkEgress', decision: 'allow', when: { hosts: unique(params.hosts ?? []) } },
    { action: 'networkEgress', decision: 'deny' },
  ],
};

export const NO_PACKAGE_INSTALLS: TemplateDefinition = {
  name: 'no-package-installs',
  title: 'No package installs',
  description:
    'Denies installing packages (every action of the `packageInstall` class). That is a tool that declares it, and the ' +
    'installs the command classifier recognises (`npm install|ci|add` and their spellings, ' +
    '`pnpm`, `yarn` and `bun` `install|add`, `pip`, `uv`, `pipx`, `poetry add`, `gem`, ' +
    '`cargo install|add`, `go install|get`, `brew`, `apt-get` and `apt install`, and the runners ' +
    'that fetch a package to run it: `npx`, `npm exec`, `pnpm dlx`, `yarn dlx`, `bunx`, `uvx`, ' +
    '`pipx run`). Installs the classifier does not know are only `processSpawn` and pass it: a bare `yarn`, ' +
    '`make install`, a downloaded script piped into a shell; `warden classifier` lists what it ' +
    'reads, and the OS sandbox and an egress allowlist are the boundary for the rest. An allow in ' +
    'a narrower scope decides before this rule.',
  params: [],
  rules: () => [{ action: 'packageInstall', decision: 'deny' }],
};
