// The layering of capi-kit, checked by dependency-cruiser (`pnpm check:layers`, run by
// .ci/run). docs/architecture.md explains it; this table is the one place it is declared:
// each package's source may import only its own files and the packages listed for it.
//   cli → autoscaler, migrate → client → conversion, lease, providerid → core
//   providers-* → conversion, providerid; envtest is for tests only; nothing imports cli.
const mayImport = {
  core: [],
  providerid: ['core'],
  conversion: ['core'],
  lease: ['core'],
  'providers-aws': ['conversion', 'providerid', 'core'],
  'providers-vsphere': ['conversion', 'providerid', 'core'],
  client: ['conversion', 'lease', 'providerid', 'core'],
  autoscaler: ['client', 'conversion', 'lease', 'providerid', 'core'],
  migrate: ['client', 'conversion', 'lease', 'providerid', 'core'],
  cli: [
    'autoscaler',
    'migrate',
    'client',
    'conversion',
    'lease',
    'providerid',
    'providers-aws',
    'providers-vsphere',
    'core',
  ],
  envtest: [],
};

const layerRules = Object.entries(mayImport).map(([pkg, allowed]) => ({
  name: `layers-${pkg}`,
  comment: `${pkg} may import only ${allowed.length === 0 ? 'itself' : allowed.join(', ')} (see docs/architecture.md)`,
  severity: 'error',
  from: { path: `^packages/${pkg}/src/` },
  to: { path: '^packages/([^/]+)/', pathNot: [`^packages/(${[pkg, ...allowed].join('|')})/`] },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      comment: 'no import cycles between source files, type-only imports included',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
    {
      name: 'grammar-without-conversion',
      comment: "a plug-in package's ./providerid entry point must not load the conversion engine",
      severity: 'error',
      from: { path: '^packages/providers-[^/]+/src/providerid\\.ts$' },
      to: { path: '^packages/conversion/', reachable: true },
    },
    {
      name: 'unresolvable',
      comment:
        'every import resolves: a package importing another it does not declare (as core importing conversion would) fails here',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // TypeScript 7 has no JS API: parse with swc, which keeps type-only imports.
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.typecheck.json' },
    // Workspace packages resolve to their source (the condition vitest and typecheck use).
    enhancedResolveOptions: {
      conditionNames: ['@capi-kit/source', 'import', 'types', 'default'],
      exportsFields: ['exports'],
      mainFields: ['module', 'main', 'types'],
    },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
  },
};
