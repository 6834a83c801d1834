/**
 * The layering rules of docs/architecture.md, checked by `npm run lint:deps` (and .ci/run):
 * shared rules in src/core import no feature folder; nothing under src reaches up into the HTTP
 * facades or the composition root; and no new import circles between files, type-only imports
 * included. Circles that existed when the rule was added are listed in
 * .dependency-cruiser-known-violations.json and may only go away.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-is-self-contained',
      comment: 'src/core holds pure shared rules: it imports libraries and other core files only.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^(src/(?!core/)|facades/|main\\.ts$)' },
    },
    {
      name: 'src-knows-no-transport',
      comment: 'Domains know no HTTP: nothing under src imports the facades or the composition root.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(facades/|main\\.ts$)' },
    },
    {
      name: 'no-circular',
      comment: 'Files may not import each other in a circle, not even for a type.',
      severity: 'error',
      from: { path: '^(src|facades)/' },
      to: { circular: true },
    },
  ],
  options: {
    // The generated Prisma client is not ours to arrange.
    exclude: { path: '^src/generated/' },
    doNotFollow: { path: 'node_modules' },
    // Count `import type` too: a type-only circle still ties two files together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
