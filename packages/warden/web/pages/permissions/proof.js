// Provable rules: each deny and prompt rule of the policy, tried by the server
// against the disguises of its target (`GET /v1/policy/proof`), as a badge
// with its verdict in words; the disguises that do not hold fold out under it,
// each command shown as text with how it was decided.

import { code, h } from '../../lib/dom.js';

/** A verdict in words, and the colour of its badge. */
const VERDICTS = /** @type {const} */ ({
  holds: { words: 'holds', tone: 'ok', means: 'every disguise tried was still caught' },
  sandbox: {
    words: 'needs the sandbox',
    tone: 'warn',
    means: 'some disguises are only stopped by the sandbox',
  },
  weakened: {
    words: 'asks instead of denying',
    tone: 'warn',
    means: 'some disguises are asked about instead of denied',
  },
  bypassable: {
    words: 'bypassable',
    tone: 'bad',
    means: 'some disguises get past this rule',
  },
  dead: { words: 'never decides', tone: 'off', means: 'another rule always decides first' },
  unproved: { words: 'not provable', tone: 'off', means: 'its target cannot be tried' },
});

/** `sandbox` where this host's sandbox stops every disguise the classifier cannot read. */
const COVERED = /** @type {const} */ ({
  words: 'holds with the sandbox',
  tone: 'ok',
  means:
    'what the classifier cannot read (a script written to a file, say) this host’s sandbox stops, or decides on what it did',
});

/**
 * The proof of a rule of the matrix's list: by id and place, else by id and scope.
 * @param {import('../../lib/types.js').PolicyProof | null} proof
 * @param {import('../../lib/types.js').RuleEntry} rule
 * @returns {import('../../lib/types.js').RuleProof | null}
 */
export function proofOf(proof, rule) {
  if (proof === null) return null;
  return (
    proof.rules.find((p) => p.rule === rule.id && p.path === rule.path) ??
    proof.rules.find((p) => p.rule === rule.id && p.scope === rule.scope) ??
    null
  );
}

/** One disguise that does not hold, as text. @param {import('../../lib/types.js').RuleProof['findings'][number]} f */
function findingItem(f) {
  const read = f.classes.filter((c) => c !== 'processSpawn');
  const seen =
    read.length > 0
      ? `read as ${read.join(', ')}`
      : f.unreadable
        ? 'not readable'
        : 'read as a plain process';
  const decided =
    f.decision === 'prompt' ? 'asked' : f.decision === 'allow' ? 'allowed' : f.decision;
  return h(
    'li',
    { class: 'finding', dataset: { verdict: f.verdict } },
    code(f.command),
    h('span', { class: 'muted' }, ` — ${f.how}; ${decided} by ${f.rule}; ${seen}`),
  );
}

/**
 * A rule's verdict as a badge, with the disguises that do not hold folded out beneath.
 * @param {import('../../lib/types.js').RuleProof} p
 */
export function proofBadge(p) {
  const v =
    p.verdict === 'sandbox' && p.sandboxCovers === true
      ? COVERED
      : (VERDICTS[p.verdict] ?? VERDICTS.unproved);
  const failing = p.findings.filter((f) => f.verdict !== 'holds');
  const title = [
    `Proof: ${v.words} — ${v.means}`,
    p.tried > 0 ? ` (${p.tried} disguises tried).` : '.',
    p.note === undefined ? '' : ` ${p.note}`,
  ].join('');
  const badge = h(
    'span',
    { class: `proof proof-${v.tone}`, title, dataset: { verdict: p.verdict } },
    v.words,
  );
  if (failing.length === 0) return h('span', { class: 'proof-wrap' }, badge);
  return h(
    'span',
    { class: 'proof-wrap' },
    badge,
    h(
      'details',
      { class: 'proof-findings' },
      h(
        'summary',
        null,
        `${failing.length} ${failing.length === 1 ? 'disguise does' : 'disguises do'} not hold`,
      ),
      h('ul', null, failing.map(findingItem)),
    ),
  );
}
