// Whether an answer may settle an approval (G23, G26): the approver's role
// for its kind, a reason for an override, and for "approve for N hours" a
// rememberable offer, hours within the limit and a scope that lifts the prompt.

import type { ApprovalRecord } from '../store/types.js';
import type { AnswerInput, AnswerResult, Approver } from './broker.js';

export function checkAnswer(
  approval: ApprovalRecord,
  input: AnswerInput,
  approver: Approver,
  maxHours: number,
): AnswerResult | null {
  const invalid = (message: string): AnswerResult => ({ ok: false, code: 'invalid', message });
  const forbidden = (message: string): AnswerResult => ({
    ok: false,
    code: 'forbidden',
    message,
  });
  if (approval.kind === 'override') {
    if (input.kind !== 'override' && input.kind !== 'deny')
      return invalid(
        `a soft deny is answered with \`override\` or \`deny\`, not \`${input.kind}\``,
      );
    if (!approver.roles.includes('overrider'))
      return forbidden(
        `\`${approver.name}\` may not override a soft deny: that needs the overrider role`,
      );
    if (input.kind === 'override' && (input.reason === undefined || input.reason.trim() === ''))
      return invalid('an override needs a reason');
    return null;
  }
  if (!approver.roles.includes('approver'))
    return forbidden(`\`${approver.name}\` may not answer prompts: that needs the approver role`);
  if (input.kind === 'override')
    return invalid('`override` answers a soft deny, and this is a prompt');
  if (input.kind !== 'remember') return null;
  const offer = approval.offer;
  if (offer === null || !offer.rememberable)
    return invalid(`only "approve once" is offered here: ${offer?.why ?? 'nothing to remember'}`);
  // Whatever the offer says, a call without the sandbox is never remembered: its
  // decision names the rule `sandbox:off` (contracts §3).
  if (approval.decision.facets.some((f) => f.rule === 'sandbox:off'))
    return invalid(
      'only "approve once" is offered here: the call asks to run without the OS sandbox',
    );
  const hours = input.hours;
  if (hours === undefined || !Number.isFinite(hours) || hours <= 0 || hours > maxHours)
    return invalid(`say for how many hours, more than 0 and at most ${maxHours}`);
  const scopes = offer.scopes.filter((s) => s.effective).map((s) => s.scope);
  if (input.scope === undefined || !scopes.includes(input.scope)) {
    const named = offer.scopes.find((s) => s.scope === input.scope);
    const why = named?.why === undefined ? '' : `: ${named.why}`;
    return invalid(
      `pick a scope of ${scopes.map((s) => `\`${s}\``).join(', ')}${input.scope === undefined ? '' : `, not \`${input.scope}\`${why}`}`,
    );
  }
  return null;
}
