// `npm run screenshots`: the README's pictures of the web console, taken in
// Debian's Chromium from a real `warden serve` on a scratch data folder with
// the example policy, an agent waiting on a prompt, and an admin signed in.
// Writes docs/img/permissions.png, docs/img/inbox.png and, at a phone's
// width (390 px), docs/img/inbox-phone.png.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'packages', 'warden', 'bin', 'warden.js');
const OUT = join(ROOT, 'docs', 'img');
const CHROMIUM = process.env['WARDEN_TEST_CHROMIUM'] ?? '/usr/bin/chromium';

const POLICY = `version: 1
workspace: acme
spaces:
  payments: { autonomy: actWithApproval }
modes:
  review: { preset: [{ action: gitCommit, decision: prompt }] }
rules:
  - { id: protect-main, action: gitPush, decision: deny, when: { refs: [main] }, note: main only through a PR }
  - { id: ask-push, action: gitPush, decision: prompt }
  - { id: no-publish, command: npm publish, decision: deny, enforcement: soft }
  - { id: docs-egress, action: networkEgress, decision: allow, when: { hosts: [docs.example.com] } }
  - { id: no-installs, scope: space:payments, action: packageInstall, decision: deny }
  - { id: tests-advisory, scope: agent:coder-2, action: fileDelete, decision: deny, enforcement: advisory }
`;

function warden(args: string[], data: string): string {
  const ran = spawnSync(process.execPath, [BIN, ...args, '--data', data], { encoding: 'utf8' });
  if (ran.status !== 0) throw new Error(`warden ${args.join(' ')}: ${ran.stderr}`);
  return ran.stdout.trim();
}

async function main(): Promise<void> {
  const data = mkdtempSync(join(tmpdir(), 'warden-shots-'));
  writeFileSync(join(data, 'policy.yaml'), POLICY);
  warden(['policy', 'apply', join(data, 'policy.yaml')], data);
  const admin = warden(['token', 'create', '--role', 'admin', '--name', 'alice'], data);
  const agent = warden(
    [
      'token',
      'create',
      '--role',
      'agent',
      '--name',
      'coder',
      '--workspace',
      'acme',
      '--agent',
      'coder-1',
    ],
    data,
  );
  const server = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--json', '--data', data], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    server.stdout.once('data', (chunk: Buffer) => {
      try {
        resolve((JSON.parse(chunk.toString('utf8').split('\n')[0] ?? '') as { url: string }).url);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${url}/sign-in`);
    await page.getByLabel('API token').fill(admin);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#who .role').waitFor();

    await page.goto(`${url}/workspaces/acme/settings/workspace/permissions`);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: join(OUT, 'permissions.png'), fullPage: false });

    await page.goto(`${url}/approvals`);
    // The open inbox is a connected approver once its live channel is up.
    await page.getByText('Connected as alice').waitFor({ timeout: 15_000 });
    // An agent asks to push while the inbox is open: the prompt waits for this approver.
    const asking = fetch(`${url}/v1/decide`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        tool: 'git_push',
        command: 'git push origin feature/login',
        args: { refs: ['feature/login'] },
        arguments: { remote: 'origin', branch: 'feature/login' },
      }),
    })
      .then(async (r) => {
        if (!r.ok) console.error(`the agent's request was refused: ${r.status} ${await r.text()}`);
      })
      .catch(() => undefined);
    await page.locator('#inbox-pending > li').first().waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(OUT, 'inbox.png'), fullPage: false });

    // The same prompt on a phone: the tab is signed in on its own.
    const phone = await browser.newPage({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    await phone.goto(`${url}/sign-in?next=%2Fapprovals`);
    await phone.getByLabel('API token').fill(admin);
    await phone.getByRole('button', { name: 'Sign in' }).click();
    await phone.locator('#inbox-pending > li').first().waitFor({ timeout: 15_000 });
    await phone.screenshot({ path: join(OUT, 'inbox-phone.png'), fullPage: false });
    await phone.close();
    await page.close();
    void asking;
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    rmSync(data, { recursive: true, force: true });
  }
  console.log(
    `wrote ${join(OUT, 'permissions.png')}, ${join(OUT, 'inbox.png')} and ${join(OUT, 'inbox-phone.png')}`,
  );
}

await main();
