// A module hook for the scripts that import the server's TypeScript under plain Node (type stripping): the server
// writes relative imports without an extension, as the bundlers want, and Node needs one. `.ts` is tried last.
export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const relative = specifier.startsWith('./') || specifier.startsWith('../');
    if (!relative || error?.code !== 'ERR_MODULE_NOT_FOUND' || /\.[cm]?[jt]s$/.test(specifier)) throw error;
    return nextResolve(`${specifier}.ts`, context);
  }
}
