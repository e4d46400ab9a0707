// The permissions screen of a workspace: its parts live in `permissions/`
// (the matrix, rules, suggested rules, autonomy dial, templates, what-if,
// audit, honesty).

export { render } from './permissions/page.js';
