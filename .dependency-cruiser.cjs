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

// The layer table says what a package may import; its package.json must also install it:
// a workspace package imported from src/ but listed only under devDependencies resolves
// here (pnpm links it) and fails for a user who installs the package.
const runtimeDependencies = (pkg) => {
  const manifest = require(`./packages/${pkg}/package.json`);
  const names = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  return names.filter((n) => n.startsWith('@capi-kit/')).map((n) => n.slice('@capi-kit/'.length));
};

const declaredRules = Object.keys(mayImport).map((pkg) => ({
  name: `declared-${pkg}`,
  comment: `${pkg} imports only the workspace packages its package.json lists under dependencies or peerDependencies`,
  severity: 'error',
  from: { path: `^packages/${pkg}/src/` },
  to: {
    path: '^packages/([^/]+)/',
    pathNot: [`^packages/(${[pkg, ...runtimeDependencies(pkg)].join('|')})/`],
  },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    ...declaredRules,
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
