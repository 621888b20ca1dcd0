// Build configuration shared by the shell and every remote: one place for the federation rules.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import path from 'node:path';
import rspack from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';

const require = createRequire(import.meta.url);
const sharedPkg = require('../package.json');

/** Singletons with explicit caret versions, as docs/arquitectura.md says. */
export function sharedModules(pkgDir) {
  const req = createRequire(path.join(pkgDir, 'package.json'));
  const version = (name) => {
    try {
      return req(`${name}/package.json`).version;
    } catch {
      return require(`${name}/package.json`).version;
    }
  };
  const entry = (name) => ({ singleton: true, requiredVersion: `^${version(name)}` });
  return {
    react: entry('react'),
    'react/': entry('react'),
    'react-dom': entry('react-dom'),
    'react-dom/': entry('react-dom'),
    'react-router': entry('react-router'),
    'react-router/': entry('react-router'),
    'react-router-dom': entry('react-router-dom'),
    'styled-components': entry('styled-components'),
    zustand: entry('zustand'),
    // Not a singleton: a remote built against a newer minor of `shared` runs its own copy instead of
    // breaking on the shell's older one; equal versions still load once. The shell context is a
    // page-wide singleton by itself (src/context.tsx). Bump the version when exports change.
    shared: { singleton: false, requiredVersion: `^${sharedPkg.version}`, version: sharedPkg.version },
  };
}

/** Writes .br and .gz beside every text asset so the server sends them precompressed. */
class PrecompressPlugin {
  apply(compiler) {
    compiler.hooks.afterEmit.tap('PrecompressPlugin', (compilation) => {
      const out = compilation.outputOptions.path;
      for (const name of Object.keys(compilation.assets)) {
        if (!/\.(js|css|html|json|svg)$/.test(name)) continue;
        const file = path.join(out, name);
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(file + '.gz', gzipSync(data, { level: 9 }));
        writeFileSync(file + '.br', brotliCompressSync(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    });
  }
}

/**
 * Writes `precache.json` beside the build: every file it emitted (maps aside), relative to the output folder. The
 * till's service worker (shell/public/sw-tpv.js) reads the shell's and mf-tpv's to keep all of the till in the
 * browser before its first sale, so a lazy chunk never needs the network.
 */
class PrecacheListPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('PrecacheListPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'PrecacheListPlugin', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const files = Object.keys(compilation.assets)
          .filter((name) => !/\.(map|gz|br|LICENSE\.txt)$/.test(name) && name !== 'precache.json')
          .sort();
        compilation.emitAsset('precache.json', new rspack.sources.RawSource(JSON.stringify(files)));
      });
    });
  }
}

function baseConfig({ dir, mode, devPort, title }) {
  const prod = mode === 'production';
  return {
    mode,
    context: dir,
    entry: { main: './src/index.ts' },
    devtool: prod ? false : 'eval-cheap-module-source-map',
    output: {
      path: path.join(dir, 'dist'),
      publicPath: 'auto',
      filename: prod ? '[name].[contenthash:8].js' : '[name].js',
      chunkFilename: prod ? '[name].[contenthash:8].js' : '[name].js',
      clean: true,
      uniqueName: path.basename(dir).replace(/\W/g, '_'),
    },
    resolve: { extensions: ['.tsx', '.ts', '.jsx', '.js', '.mjs', '.json'] },
    module: {
      rules: [
        {
          test: /\.[jt]sx?$/,
          exclude: /node_modules[\\/](?!shared)/,
          loader: 'builtin:swc-loader',
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              transform: { react: { runtime: 'automatic', development: !prod, refresh: false } },
              target: 'es2020',
            },
          },
          type: 'javascript/auto',
        },
        { test: /\.(png|svg|ico|jpe?g|gif|webp)$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      // Absolute script URLs in development, so reloading a deep link of the harness (/config/usuario/1) works;
      // the built remote keeps 'auto' (its chunks load from wherever its remoteEntry is).
      new rspack.HtmlRspackPlugin({ template: path.join(dir, 'index.html'), title, favicon: undefined, ...(prod ? {} : { publicPath: '/' }) }),
      new rspack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify(mode) }),
      ...(prod ? [new PrecompressPlugin(), new PrecacheListPlugin()] : []),
    ],
    devServer: {
      port: devPort,
      historyApiFallback: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
      proxy: [{ context: ['/api', '/archivos'], target: process.env.API_URL ?? 'http://localhost:3000' }],
    },
    performance: { hints: false },
    optimization: { moduleIds: 'deterministic', chunkIds: 'deterministic' },
  };
}

/** A section remote: exposes `./Section` and ships its `menu.json` as data beside its manifest. */
export function remoteConfig({ dir, name, devPort, mode = process.env.NODE_ENV === 'development' ? 'development' : 'production' }) {
  const config = baseConfig({ dir, mode, devPort, title: `${name} (arnés)` });
  config.plugins.push(
    new ModuleFederationPlugin({
      name,
      filename: 'remoteEntry.js',
      exposes: { './Section': './src/section.tsx' },
      shared: sharedModules(dir),
      dts: false,
      manifest: true,
      // In production the shell provides the federation runtime; the dev harness bundles its own.
      experiments: { optimization: { target: 'web' }, externalRuntime: mode === 'production' },
    }),
    new rspack.CopyRspackPlugin({ patterns: [{ from: 'src/menu.json', to: 'menu.json' }] }),
  );
  return config;
}

/** The host: no remotes at build time; the server's deploy.json tells where they are. */
export function shellConfig({ dir, devPort = 8080, mode = process.env.NODE_ENV === 'development' ? 'development' : 'production' }) {
  const config = baseConfig({ dir, mode, devPort, title: 'Manager TPV' });
  config.output.publicPath = '/';
  config.plugins.push(
    new ModuleFederationPlugin({
      name: 'shell',
      remotes: {},
      shared: sharedModules(dir),
      shareStrategy: 'loaded-first',
      dts: false,
      // Browser-only runtime (no Node loading paths), offered to the remotes so none bundles its own.
      experiments: { optimization: { target: 'web' }, provideExternalRuntime: true },
      manifest: false,
    }),
    new rspack.CopyRspackPlugin({ patterns: [{ from: 'public', to: '.', noErrorOnMissing: true }] }),
  );
  config.devServer.proxy[0].context.push('/remotes');
  return config;
}
