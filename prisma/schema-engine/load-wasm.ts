// Prisma's schema engine as WebAssembly: its JS glue loaded, its .wasm instantiated here,
// since the package's entry imports a .wasm file, which Node cannot.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export type Bindings = typeof import('@prisma/schema-engine-wasm');
let bindings: Promise<Bindings> | undefined;

/** Loads the engine's JS glue and instantiates its .wasm ourselves: Node cannot import .wasm. */
export function loadBindings(): Promise<Bindings> {
  bindings ??= (async () => {
    const require = createRequire(import.meta.url);
    // The package's exports map hides package.json; resolve its JS glue instead.
    const pkgDir = dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
    const glue = (await import(pathToFileURL(join(pkgDir, 'schema_engine_bg.js')).href)) as Bindings & {
      __wbg_set_wasm(exports: WebAssembly.Exports): void;
    };
    const bytes = await readFile(join(pkgDir, 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': glue as never });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue;
  })();
  return bindings;
}
