// The virtual module every plugin may import. Its typings are generated from the router's own
// source (isolates/core-v1) by scripts/build-sdk.mjs; see doc/core-v1.md for what each export does.
declare module 'hpatch:core/v1' {
  export * from '@hpatch-router/sdk/core-v1/index.js';
}
