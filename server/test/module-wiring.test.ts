// The wiring rules of issue 12 item 1: what runs is decided by the module list alone. No file
// fills a shared list when it is imported (a top-level `push` onto an imported or exported value),
// every module folder is in the list, and ESLint refuses a deep import into another module.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { modules } from '../src/modules/index.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = path.resolve(serverDir, '..');
const srcDir = path.join(serverDir, 'src');

const MUTATORS = new Set(['push', 'unshift', 'splice', 'set', 'add', 'assign']);

/**
 * Top-level statements of a file (outside any function) that change a value the file imports or
 * exports: `list.push(x)`, `if (!list.includes(x)) list.push(x)`, `map.set(k, v)`, `list[i] = x`,
 * `Object.assign(registry, ...)`. Such a line registers something as a side effect of importing.
 */
export function sideEffectRegistrations(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true);
  const shared = new Set<string>();
  for (const st of file.statements) {
    if (ts.isImportDeclaration(st) && st.importClause) {
      const { name, namedBindings } = st.importClause;
      if (name) shared.add(name.text);
      if (namedBindings && ts.isNamedImports(namedBindings)) {
        for (const el of namedBindings.elements) shared.add(el.name.text);
      } else if (namedBindings) shared.add(namedBindings.name.text);
    }
    const exported = ts.canHaveModifiers(st)
      ? ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (exported && ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) shared.add(d.name.text);
      }
    }
  }
  const root = (e: ts.Expression): string | undefined => {
    while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) e = e.expression;
    return ts.isIdentifier(e) ? e.text : undefined;
  };
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    // Code inside a function runs when called, not when the file is imported.
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const target =
        method === 'assign' && node.arguments[0]
          ? root(node.arguments[0])
          : root(node.expression.expression);
      if (MUTATORS.has(method) && target && shared.has(target) && target !== 'Object') {
        const { line } = file.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${fileName}:${line + 1}: ${node.getText().split('\n')[0]}`);
      }
    }
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      (ts.isElementAccessExpression(node.left) || ts.isPropertyAccessExpression(node.left))
    ) {
      const target = root(node.left);
      if (target && shared.has(target)) {
        const { line } = file.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${fileName}:${line + 1}: ${node.getText().split('\n')[0]}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  for (const st of file.statements) visit(st);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('no registry is filled by importing a file', () => {
  it('finds nothing in server/src', () => {
    const found = sourceFiles(srcDir).flatMap((f) =>
      sideEffectRegistrations(path.relative(serverDir, f), readFileSync(f, 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('catches each way of registering on import (planted examples)', () => {
    const planted = `
      import { postCommitSteps, workerStarters } from '../messages/inbound.js';
      import * as hooks from '../../whatsapp/hooks.js';
      export const handlers: string[] = [];
      const local: string[] = [];
      local.push('fine: nobody else sees it');
      postCommitSteps.push(async () => undefined);
      if (!workerStarters.includes(start)) workerStarters.push(start);
      hooks.sessionEventHandlers.unshift(handle);
      handlers.push('exported list filled here');
      registryOf.set('x', 1);
      postCommitSteps[0] = wrap;
      export function later() { postCommitSteps.push(x); }
      const lazy = () => handlers.push('inside a function: fine');
    `;
    const found = sideEffectRegistrations('planted.ts', planted).map((l) => l.split(': ')[1]);
    expect(found).toEqual([
      'postCommitSteps.push(async () => undefined)',
      'workerStarters.push(start)',
      'hooks.sessionEventHandlers.unshift(handle)',
      "handlers.push('exported list filled here')",
      'postCommitSteps[0] = wrap',
    ]);
  });
});

describe('the module list', () => {
  it('lists every module folder once, with unique names', () => {
    const folders = readdirSync(path.join(srcDir, 'modules')).filter((n) =>
      statSync(path.join(srcDir, 'modules', n)).isDirectory(),
    );
    const names = modules.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((n) => n !== 'whatsapp').sort()).toEqual(folders.sort());
  });

  it('runs the reactions to a stored message in the listed order (timers, then routing)', () => {
    const consumers = modules.flatMap((m) => (m.consumers ?? []).map((c) => c.name));
    // Campaigns (issue 16) read replies after the bot has answered.
    expect(consumers.indexOf('campaigns')).toBeGreaterThan(consumers.indexOf('routing'));
    expect(consumers.filter((n) => n === 'timers' || n === 'routing')).toEqual([
      'timers',
      'routing',
    ]);
    // The AI's consumer (an agent's reply stops it) reads the same events after them.
    expect(consumers.indexOf('prompts')).toBeGreaterThan(consumers.indexOf('routing'));
  });
});

describe('module boundaries (ESLint)', () => {
  const eslint = new ESLint({ cwd: repoDir });
  const errorsOf = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(repoDir, filePath) });
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').length;
  };

  it("rejects a deep import into another module's files, from a module or from elsewhere", async () => {
    const deep = `import { loadTicket } from '../tickets/tickets.queries.js';\nexport const x = loadTicket;\n`;
    expect(await errorsOf('server/src/modules/tags/planted.ts', deep)).toBe(1);
    const fromHttp = `import { verifyAccessToken } from '../modules/auth/tokens.js';\nexport const x = verifyAccessToken;\n`;
    expect(await errorsOf('server/src/http/planted.ts', fromHttp)).toBe(1);
  });

  it("accepts the module's index.ts, its own files and a test's deep import", async () => {
    const viaIndex = `import { loadTicket } from '../tickets/index.js';\nimport { x as y } from './own.js';\nexport const x = [loadTicket, y];\n`;
    expect(await errorsOf('server/src/modules/tags/planted.ts', viaIndex)).toBe(0);
    const inTest = `import { loadTicket } from '../src/modules/tickets/tickets.queries.js';\nexport const x = loadTicket;\n`;
    expect(await errorsOf('server/test/planted.test.ts', inTest)).toBe(0);
  });
});
