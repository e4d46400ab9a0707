// The rule editor's state, tested in Node without a browser: the console
// keeps what the permissions screen's rule editor does in a pure module
// (`web/pages/permissions/editor-state.js`), events in and a new state out, so
// the rule a form makes, what is wrong with it, the preview asked and
// answered, and every way a save ends are checked here; `web-permissions.test.ts`
// keeps what only a browser shows (the dialog against a real server, focus,
// the preview scrolled into view).

import { describe, expect, it } from 'vitest';
import {
  constraintText,
  editorState,
  fits,
  listText,
  mayRemove,
  offered,
  proposal,
  reduce,
  reloadedText,
  removeText,
  revisionText,
  ruleOf,
  savedText,
  scopeChoices,
  titleText,
  // The console is plain JavaScript checked by its own tsconfig (`web/`); the
  // tests' tsconfig does not read JavaScript, so this import is untyped here.
  // @ts-expect-error -- a JavaScript module of the console
} from '../../web/pages/permissions/editor-state.js';

type State = ReturnType<typeof editorState>;
const feed = (state: State, ...events: unknown[]): State =>
  events.reduce((s: State, e: unknown) => reduce(s, e), state);

const classes = [
  { class: 'gitPush', covers: 'pushing commits' },
  { class: 'fileDelete', covers: 'deleting files' },
];
const columns = [{ scope: 'workspace' }, { scope: 'agent:coder-1' }, { scope: 'space:payments' }];

/** The policy as the matrix route reads it, at `revision`. */
function matrix(revision = 7) {
  return {
    revision: { revision },
    classes,
    columns,
    document: {
      version: 1,
      workspace: 'acme',
      rules: [
        { id: 'gitpush', action: 'gitPush', decision: 'prompt' },
        {
          id: 'no-deletes',
          action: 'fileDelete',
          decision: 'deny',
          enforcement: 'soft',
          scope: 'space:payments',
          when: { paths: ['repos/**', '!**/.env'], maxCount: 3 },
          expiresAt: '2027-01-01T00:00:00Z',
          origin: 'suggested',
          note: 'no deletes in payments',
        },
      ],
      modes: { review: { preset: [{ id: 'review-push', action: 'gitPush', decision: 'deny' }] } },
    },
  };
}

const entry = {
  id: 'no-deletes',
  path: 'rules[1]',
  scope: 'space:payments',
};

const added = (over: Record<string, unknown> = {}) =>
  editorState(matrix(), { scope: 'space:payments', action: 'fileDelete', ...over });

describe('the rule editor as it opens', () => {
  it('opens on a new rule for a cell: the cell’s class and scope, deny, hard, a fresh id', () => {
    const state = added();
    expect(state.form).toEqual({
      scope: 'space:payments',
      otherScope: '',
      kind: 'action',
      action: 'fileDelete',
      command: '',
      decision: 'deny',
      enforcement: 'hard',
      lists: { paths: '', refs: '', hosts: '', commands: '' },
      maxCount: '',
      maxCents: '',
      expires: '',
      id: 'filedelete-space-payments',
      note: '',
      message: 'console: add a rule',
    });
    expect(titleText(state)).toBe('Add a rule');
    expect(revisionText(state)).toBe('Editing revision 7.');
    expect(mayRemove(state)).toBe(false);
    expect(state.failed).toBeNull();
    expect(state.result).toBeNull();
  });

  it('takes a fresh id when the obvious one is taken, and a command as what the rule is about', () => {
    const state = editorState(matrix(), { command: 'git push' });
    expect(state.form.kind).toBe('command');
    expect(state.form.command).toBe('git push');
    expect(state.form.id).toBe('git-push');
    expect(state.form.action).toBe('gitPush');
    expect(editorState(matrix(), { action: 'gitPush' }).form.id).toBe('gitpush-2');
  });

  it('opens on a rule written in the document with its fields as the inputs show them', () => {
    const state = editorState(matrix(), { entry });
    expect(state.form).toMatchObject({
      scope: 'space:payments',
      kind: 'action',
      action: 'fileDelete',
      decision: 'deny',
      enforcement: 'soft',
      lists: { paths: 'repos/**\n!**/.env', refs: '', hosts: '', commands: '' },
      maxCount: '3',
      maxCents: '',
      id: 'no-deletes',
      note: 'no deletes in payments',
      message: 'console: change rule no-deletes',
    });
    expect(state.kept.expiresAt).toBe('2027-01-01T00:00:00Z');
    expect(state.form.expires).toBe(state.kept.expiresLocal);
    expect(state.form.expires).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
    expect(titleText(state)).toBe('Edit rule no-deletes');
    expect(mayRemove(state)).toBe(true);
  });

  it('opens an enforcement the decision cannot take as hard', () => {
    // Soft only denies: a rule that asks cannot be made soft from the audit's "make it hard".
    const asks = { id: 'gitpush', path: 'rules[0]', scope: 'workspace' };
    const state = editorState(matrix(), { entry: asks, enforcement: 'soft' });
    expect(state.form.decision).toBe('prompt');
    expect(state.form.enforcement).toBe('hard');
    const advisory = editorState(matrix(), { entry, enforcement: 'advisory' });
    expect(advisory.form.enforcement).toBe('advisory');
  });

  it('offers the matrix’s scopes, the one it opened on, and another', () => {
    expect(scopeChoices(columns, 'mode:review')).toEqual([
      ['workspace', 'Workspace'],
      ['agent:coder-1', 'Agent coder-1'],
      ['space:payments', 'Space payments'],
      ['mode:review', 'Mode review'],
      ['', 'Another agent or space…'],
    ]);
    expect(scopeChoices(columns, 'workspace')).toHaveLength(4);
    expect(added().classes).toEqual([
      ['gitPush', 'gitPush — pushing commits'],
      ['fileDelete', 'fileDelete — deleting files'],
    ]);
  });
});

describe('the rule the form makes', () => {
  it('keeps enforcement with a decision it fits', () => {
    expect(fits('deny', 'soft')).toBe(true);
    expect(fits('prompt', 'soft')).toBe(false);
    expect(fits('allow', 'advisory')).toBe(false);
    expect(fits('prompt', 'advisory')).toBe(true);
    expect(fits('allow', 'hard')).toBe(true);
  });

  it('reads lists from hand-written JSON and offers only classes the select has', () => {
    expect(listText(['a', 'b'])).toBe('a\nb');
    expect(listText('a')).toBe('');
    expect(listText(undefined)).toBe('');
    expect(offered(classes, 'fileDelete')).toBe('fileDelete');
    expect(offered(classes, 'shellExec')).toBe('gitPush');
    expect(offered([], 'shellExec')).toBe('shellExec');
  });

  it('writes each field as typed, and the constraints as lists and numbers', () => {
    const state = feed(
      added(),
      { type: 'decision', value: 'allow' },
      { type: 'list', key: 'paths', value: ' repos/** \n\n!**/.env' },
      { type: 'list', key: 'hosts', value: '*.internal' },
      { type: 'text', key: 'maxCents', value: '500' },
      { type: 'text', key: 'note', value: '  only here ' },
      { type: 'text', key: 'id', value: 'small-deletes' },
    );
    expect(ruleOf(state.form, state.kept)).toEqual({
      ok: true,
      scope: 'space:payments',
      rule: {
        id: 'small-deletes',
        action: 'fileDelete',
        decision: 'allow',
        when: { paths: ['repos/**', '!**/.env'], hosts: ['*.internal'], maxCents: 500 },
        note: 'only here',
      },
    });
  });

  it('says what is wrong with a form, one field at a time', () => {
    const wrong = (...events: unknown[]) => {
      const s = feed(added(), ...events);
      return ruleOf(s.form, s.kept);
    };
    expect(wrong({ type: 'scope', value: '' })).toEqual({
      ok: false,
      message: 'scope: say which agent or space (`agent:<id>`, `space:<id>`)',
    });
    expect(
      wrong({ type: 'scope', value: '' }, { type: 'text', key: 'otherScope', value: ' agent:x ' }),
    ).toMatchObject({ ok: true, scope: 'agent:x' });
    expect(wrong({ type: 'text', key: 'id', value: 'a b' })).toEqual({
      ok: false,
      message: 'id: an id holds no white space and no `:`',
    });
    expect(wrong({ type: 'kind', value: 'command' })).toEqual({
      ok: false,
      message: 'command: give the command prefix the rule is about',
    });
    expect(wrong({ type: 'text', key: 'maxCount', value: '1.5' })).toEqual({
      ok: false,
      message: 'maxCount: a whole number, 0 or more',
    });
    expect(wrong({ type: 'text', key: 'maxCents', value: '-1' })).toEqual({
      ok: false,
      message: 'maxCents: a whole number, 0 or more',
    });
    expect(wrong({ type: 'text', key: 'expires', value: 'soon' })).toEqual({
      ok: false,
      message: 'expires: not a time',
    });
  });

  it('keeps an expiry as written until it is changed, and its origin', () => {
    const kept = editorState(matrix(), { entry });
    expect(ruleOf(kept.form, kept.kept)).toMatchObject({
      ok: true,
      rule: { expiresAt: '2027-01-01T00:00:00Z', origin: 'suggested', enforcement: 'soft' },
    });
    const moved = reduce(kept, { type: 'text', key: 'expires', value: '2027-03-01T09:30' });
    const read = ruleOf(moved.form, moved.kept);
    expect(read.rule.expiresAt).toBe(
      new Date('2027-03-01T09:30').toISOString().replace(/\.000Z$/, 'Z'),
    );
    const never = reduce(kept, { type: 'text', key: 'expires', value: '' });
    expect(ruleOf(never.form, never.kept).rule).not.toHaveProperty('expiresAt');
  });

  it('sets enforcement back to hard when the decision no longer takes it, and refuses one it cannot take', () => {
    const soft = feed(added(), { type: 'enforcement', value: 'soft' });
    expect(soft.form.enforcement).toBe('soft');
    expect(reduce(soft, { type: 'decision', value: 'prompt' }).form.enforcement).toBe('hard');
    const advisory = feed(soft, { type: 'enforcement', value: 'advisory' });
    expect(reduce(advisory, { type: 'decision', value: 'prompt' }).form.enforcement).toBe(
      'advisory',
    );
    const allow = reduce(added(), { type: 'decision', value: 'allow' });
    expect(reduce(allow, { type: 'enforcement', value: 'soft' })).toBe(allow);
    expect(constraintText('allow')).toMatch(/^An allow applies only when/);
    expect(constraintText('deny')).toMatch(/^A deny or ask applies when/);
  });

  it('writes the rule into the document in its place, or appends a new one', () => {
    const base = matrix().document;
    const edited = reduce(editorState(matrix(), { entry }), {
      type: 'decision',
      value: 'prompt',
    });
    const made = proposal(edited, base);
    expect(made.ok).toBe(true);
    expect(made.id).toBe('no-deletes');
    expect(made.document.rules[1]).toMatchObject({
      id: 'no-deletes',
      decision: 'prompt',
      scope: 'space:payments',
    });
    expect(made.document.rules[1]).not.toHaveProperty('enforcement');
    expect(base.rules[1]?.decision).toBe('deny');
    const fresh = proposal(added(), base);
    expect(fresh.document.rules).toHaveLength(3);
    expect(fresh.document.rules[2]).toEqual({
      id: 'filedelete-space-payments',
      action: 'fileDelete',
      decision: 'deny',
      scope: 'space:payments',
    });
    // A rule gone from the document since is not written back.
    expect(proposal(edited, { ...base, rules: [] })).toEqual({
      ok: false,
      message: 'rule `no-deletes` is no longer in the policy: reload it',
    });
  });
});

describe('previewing', () => {
  const answer = (n: number) => ({
    rules: { added: [], changed: [], removed: [] },
    changes: [],
    warnings: [],
    n,
  });

  it('asks for the document the form makes, and shows the answer to it', () => {
    const asked = reduce(added(), { type: 'preview', base: matrix().document });
    expect(asked.previewing).toMatchObject({ asked: 1, id: 'filedelete-space-payments' });
    expect(asked.previewing.document.rules).toHaveLength(3);
    const shown = reduce(asked, { type: 'previewed', asked: 1, preview: answer(1) });
    expect(shown.previewing).toBeNull();
    expect(shown.result).toEqual({
      kind: 'preview',
      preview: answer(1),
      id: 'filedelete-space-payments',
    });
    expect(shown.scroll).toBe(true);
    expect(reduce(shown, { type: 'scrolled' }).scroll).toBe(false);
  });

  it('shows only the answer to the last preview asked', () => {
    const base = matrix().document;
    const twice = feed(
      added(),
      { type: 'preview', base },
      { type: 'text', key: 'id', value: 'second' },
      { type: 'preview', base },
    );
    expect(twice.previewing.asked).toBe(2);
    expect(reduce(twice, { type: 'previewed', asked: 1, preview: answer(1) })).toBe(twice);
    expect(reduce(twice, { type: 'preview-failed', asked: 1, message: 'late' })).toBe(twice);
    const shown = reduce(twice, { type: 'previewed', asked: 2, preview: answer(2) });
    expect(shown.result).toMatchObject({ preview: answer(2), id: 'second' });
  });

  it('says why it cannot preview, a form’s mistake or the server’s refusal, and clears the result', () => {
    const shown = feed(
      added(),
      { type: 'preview', base: matrix().document },
      { type: 'previewed', asked: 1, preview: answer(1) },
    );
    const wrong = feed(
      shown,
      { type: 'text', key: 'id', value: 'a:b' },
      { type: 'preview', base: matrix().document },
    );
    expect(wrong.previewing).toBeNull();
    expect(wrong.result).toBeNull();
    expect(wrong.failed).toEqual({
      kind: 'failed',
      what: 'Cannot preview',
      message: 'id: an id holds no white space and no `:`',
    });
    const refused = feed(
      shown,
      { type: 'preview', base: matrix().document },
      { type: 'preview-failed', asked: 2, message: 'the document is not valid' },
    );
    expect(refused.result).toBeNull();
    expect(refused.failed).toEqual({
      kind: 'failed',
      what: 'Cannot preview',
      message: 'the document is not valid',
    });
    // The next preview starts clean.
    expect(reduce(refused, { type: 'preview', base: matrix().document }).failed).toBeNull();
  });
});

describe('saving and removing', () => {
  it('writes the document on the revision the page holds, with the message given', () => {
    const base = matrix(9).document;
    const asked = feed(
      added(),
      { type: 'text', key: 'message', value: '  no deletes in payments ' },
      { type: 'save', base, revision: 9 },
    );
    expect(asked.writing).toMatchObject({ message: 'no deletes in payments', expected: 9 });
    expect(asked.writing.document.rules).toHaveLength(3);
    // A second click while it is on its way does nothing.
    expect(reduce(asked, { type: 'save', base, revision: 9 })).toBe(asked);
    const written = { revision: 10, author: 'alice' };
    const saved = reduce(asked, { type: 'saved', written });
    expect(saved.writing).toBeNull();
    expect(saved.saved).toEqual(written);
    expect(savedText(written)).toBe('Saved: revision 10, by alice');
    const blank = feed(
      added(),
      { type: 'text', key: 'message', value: '  ' },
      { type: 'save', base, revision: 9 },
    );
    expect(blank.writing.message).toBe('console');
  });

  it('keeps the form and says what is wrong when it cannot be saved', () => {
    const shown = feed(
      added(),
      { type: 'preview', base: matrix().document },
      { type: 'previewed', asked: 1, preview: { rules: {}, changes: [], warnings: [] } },
    );
    const wrong = feed(
      shown,
      { type: 'text', key: 'maxCount', value: 'lots' },
      { type: 'save', base: matrix().document, revision: 7 },
    );
    expect(wrong.writing).toBeNull();
    expect(wrong.failed).toEqual({
      kind: 'failed',
      what: 'Not saved',
      message: 'maxCount: a whole number, 0 or more',
    });
    // The preview stays where it was.
    expect(wrong.result).toBe(shown.result);
    const refused = feed(
      added(),
      { type: 'save', base: matrix().document, revision: 7 },
      { type: 'write-refused', message: 'rules[2]: unknown action class' },
    );
    expect(refused.writing).toBeNull();
    expect(refused.saved).toBeNull();
    expect(refused.failed).toEqual({
      kind: 'failed',
      what: 'Not saved',
      message: 'rules[2]: unknown action class',
    });
  });

  it('meets a newer revision as a conflict, and reads the policy again keeping the edits', () => {
    const conflict = feed(
      added(),
      { type: 'text', key: 'note', value: 'mine' },
      { type: 'save', base: matrix().document, revision: 7 },
      { type: 'conflict', message: 'the policy is at revision 8' },
    );
    expect(conflict.writing).toBeNull();
    expect(conflict.failed).toEqual({
      kind: 'conflict',
      expected: 7,
      message: 'the policy is at revision 8',
    });
    const reloaded = reduce(conflict, { type: 'reloaded', revision: 8 });
    expect(reloaded.failed).toBeNull();
    expect(reloaded.result).toEqual({ kind: 'reloaded', revision: 8 });
    expect(reloaded.form.note).toBe('mine');
    expect(revisionText(reloaded)).toBe('Editing revision 8.');
    expect(reloadedText(8)).toBe(
      'The policy is now read at revision 8; your edits are still here: save again to write them on top of it.',
    );
    expect(revisionText(reduce(conflict, { type: 'reloaded', revision: null }))).toBe(
      'Editing revision —.',
    );
    const again = reduce(reloaded, { type: 'save', base: matrix(8).document, revision: 8 });
    expect(again.writing.expected).toBe(8);
  });

  it('removes a rule on the second click only, and not a rule gone since', () => {
    const base = matrix().document;
    const state = editorState(matrix(), { entry });
    expect(removeText(state)).toBe('Remove this rule');
    const once = reduce(state, { type: 'remove', base, revision: 7 });
    expect(once.writing).toBeNull();
    expect(removeText(once)).toBe('Remove no-deletes — click again to confirm');
    const twice = reduce(once, { type: 'remove', base, revision: 7 });
    expect(twice.writing).toMatchObject({
      message: 'console: remove rule no-deletes',
      expected: 7,
    });
    expect(twice.writing.document.rules.map((r: { id: string }) => r.id)).toEqual(['gitpush']);
    const gone = reduce(once, { type: 'remove', base: { ...base, rules: [] }, revision: 7 });
    expect(gone.writing).toBeNull();
    expect(gone.failed).toEqual({
      kind: 'failed',
      what: 'Not removed',
      message: 'rule `no-deletes` is no longer in the policy: reload it',
    });
    // A new rule has nothing to remove.
    expect(reduce(added(), { type: 'remove', base, revision: 7 })).toEqual(added());
  });
});
