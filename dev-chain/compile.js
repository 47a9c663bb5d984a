'use strict';
// Compiles contracts/*.sol with the pinned solc npm package (offline: the compiler is bundled in the package) and
// writes build/<Contract>.json = { "abi": [...], "bytecode": "0x..." } for every contract found.
// Usage: node compile.js   (exits non-zero with the compiler's messages when compilation fails)

const fs = require('fs');
const path = require('path');
const solc = require('solc');

const contractsDir = path.join(__dirname, 'contracts');
const buildDir = path.join(__dirname, 'build');

function fail(message) {
  console.error(`compile.js: ${message}`);
  process.exit(1);
}

const sources = {};
for (const file of fs.readdirSync(contractsDir).filter((f) => f.endsWith('.sol')).sort()) {
  sources[file] = { content: fs.readFileSync(path.join(contractsDir, file), 'utf8') };
}
if (Object.keys(sources).length === 0) {
  fail(`no .sol files in ${contractsDir}`);
}

const input = {
  language: 'Solidity',
  sources,
  settings: {
    // OpenZeppelin 5 uses mcopy (Cancun); solc 0.8.37 would otherwise target a newer EVM than chains run.
    evmVersion: 'cancun',
    // The IR pipeline: subscribe() emits more values than the legacy code generator's stack reaches.
    viaIR: true,
    optimizer: { enabled: true, runs: 200 },
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};

// Imports resolve only inside node_modules/@openzeppelin/contracts (installed from the lock file): nothing is fetched.
const openZeppelin = path.join(__dirname, 'node_modules', '@openzeppelin', 'contracts');
function findImports(importPath) {
  const prefix = '@openzeppelin/contracts/';
  if (!importPath.startsWith(prefix)) {
    return { error: `import ${importPath}: only ${prefix}… is available` };
  }
  const file = path.resolve(openZeppelin, importPath.slice(prefix.length));
  if (!file.startsWith(openZeppelin + path.sep) || !fs.existsSync(file)) {
    return { error: `import ${importPath}: not in ${openZeppelin} (run npm ci --ignore-scripts)` };
  }
  return { contents: fs.readFileSync(file, 'utf8') };
}
const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
const problems = output.errors || [];
for (const problem of problems) {
  console.error(problem.formattedMessage || problem.message);
}
const errors = problems.filter((problem) => problem.severity === 'error');
if (errors.length > 0) {
  fail(`solc ${solc.version()} reported ${errors.length} error(s); nothing written`);
}

fs.mkdirSync(buildDir, { recursive: true });
let written = 0;
for (const [file, contracts] of Object.entries(output.contracts || {})) {
  if (!(file in sources)) {
    continue; // a library the contracts import (OpenZeppelin): part of their bytecode, no artifact of its own
  }
  for (const [name, contract] of Object.entries(contracts)) {
    const bytecode = contract.evm.bytecode.object;
    if (!bytecode) {
      continue; // an interface or abstract contract: nothing to deploy
    }
    const artifact = { abi: contract.abi, bytecode: `0x${bytecode}` };
    // Write to a temporary file first, so a reader never sees a half-written artifact.
    const target = path.join(buildDir, `${name}.json`);
    fs.writeFileSync(`${target}.tmp`, `${JSON.stringify(artifact, null, 2)}\n`);
    fs.renameSync(`${target}.tmp`, target);
    console.log(`compile.js: ${file}:${name} -> ${path.relative(__dirname, target)}`);
    written++;
  }
}
if (written === 0) {
  fail('the compiler produced no deployable contract');
}
