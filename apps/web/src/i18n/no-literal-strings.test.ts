import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

// A test fails when a component renders a literal string that is not translated.
// Every .tsx file is parsed; JSX text and the user-facing attributes must hold no words.

const SOURCE_DIR = join(import.meta.dirname, '..');
const USER_FACING_ATTRIBUTES = new Set(['aria-label', 'aria-description', 'title', 'placeholder', 'alt']);
const WORD = /\p{L}{2,}/u;

function componentFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return componentFiles(path);
    return entry.name.endsWith('.tsx') && !entry.name.endsWith('.test.tsx') ? [path] : [];
  });
}

function literalStrings(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${relative(SOURCE_DIR, file)}:${line + 1}: ${text.trim()}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && WORD.test(node.text)) report(node, node.text);
    if (
      ts.isJsxAttribute(node) &&
      USER_FACING_ATTRIBUTES.has(node.name.getText(source)) &&
      node.initializer &&
      ts.isStringLiteral(node.initializer) &&
      WORD.test(node.initializer.text)
    ) {
      report(node, node.initializer.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('user-visible text', () => {
  test('Components render no untranslated words', () => {
    const files = componentFiles(SOURCE_DIR);
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap(literalStrings)).toEqual([]);
  });
});
